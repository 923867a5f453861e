const SUMMARY_CHARS = 200;

/**
 * The words of the start of a Markdown body (the service's own Markdown, as the content format writes it), on one
 * line: directive fences, code fences, heading, quote and list marks, emphasis and link targets removed, link labels
 * and image alt texts kept, escapes undone. Plain text: the pages escape it like any other.
 */
export function markdownWords(markdown: string): string {
  return markdown
    .replace(/^ {0,3}:{3,} *(?:step|card)\{[^\n]*?\btitle="((?:[^"\\\n]|\\.)*)"[^\n]*$/gm, '$1')
    .replace(/^ {0,3}(?::{3,}|`{3,}|~{3,}).*$/gm, '')
    .replace(/^ {0,3}\|?(?: *:?-+:? *\|)+ *:?-*:? *$/gm, '')
    .replace(/^(?: *>)* *(?:#{1,6}(?= |$)|[-+*](?= )|\d{1,9}[.)](?= ))?/gm, '')
    .replace(/(?<!\\)!?\[((?:[^\]\\]|\\.)*)\]\((?:[^()\\]|\\.|\([^()]*\))*\)?/g, '$1')
    .replace(/(?<!\\)<([a-z][a-z0-9+.-]*:[^<>\s]*)>/gi, '$1')
    .replace(/(?<!\\)(?:\*+|~~|`+)/g, '')
    .replace(/(?<!\\)\|/g, ' ')
    .replace(/\\$/gm, '')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
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
