const SUMMARY_CHARS = 200;

/**
 * The words of the start of a Markdown body (the service's own Markdown, as the content format writes it), on one
 * line: directive fences, code fences, heading, quote and list marks, emphasis and link targets removed, link labels
 * and image alt texts kept, escapes undone. Plain text: the pages escape it like any other.
 */
export function markdownWords(markdown: string): string {
  const words = markdown
    // A heading or a step/card title is a block of its own: it ends a sentence (see joinBlocks).
    .replace(/^ {0,3}:{3,} *(?:step|card)\{[^\n]*?\btitle="((?:[^"\\\n]|\\.)*)"[^\n]*$/gm, '$1\n')
    .replace(/^ {0,3}#{1,6} (.*)$/gm, '$1\n')
    .replace(/^ {0,3}(?::{3,}|`{3,}|~{3,}).*$/gm, '')
    .replace(/^ {0,3}\|?(?: *:?-+:? *\|)+ *:?-*:? *$/gm, '')
    .replace(/^(?: *>)* *(?:#{1,6}(?= |$)|[-+*](?= )|\d{1,9}[.)](?= ))?/gm, '')
    .replace(/(?<!\\)!?\[((?:[^\]\\]|\\.)*)\]\((?:[^()\\]|\\.|\([^()]*\))*\)?/g, '$1')
    .replace(/(?<!\\)<([a-z][a-z0-9+.-]*:[^<>\s]*)>/gi, '$1')
    .replace(/(?<!\\)(?:\*+|~~|`+)/g, '')
    .replace(/(?<!\\)\|/g, ' ')
    .replace(/\\$/gm, '')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1');
  return joinBlocks(words);
}

/** Blocks (separated by a blank line) on one line, a full stop after a block that ends without punctuation. */
function joinBlocks(text: string): string {
  return text
    .split(/\n[ \t]*\n/)
    .map((block) => block.replace(/\s+/g, ' ').trim())
    .filter((block) => block.length > 0)
    .map((block, index, blocks) => (index < blocks.length - 1 && !/[.!?:;…]$/u.test(block) ? `${block}.` : block))
    .join(' ');
}

/** At most about 200 characters of plain text on one line, cut between words (with "…"). */
export function summarize(text: string | null | undefined): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  if (flat.length <= SUMMARY_CHARS) return flat;
  const cut = flat.slice(0, SUMMARY_CHARS + 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > SUMMARY_CHARS / 2 ? cut.slice(0, space) : cut.slice(0, SUMMARY_CHARS)).replace(/[\s,;:.!?-]+$/u, '')}…`;
}

/** A list entry's summary: its meta description, or the first words of its text. */
export function summaryOf(description: string | null, textStart: string): string {
  const meta = description?.trim();
  return summarize(meta ? meta : markdownWords(textStart));
}
