import MarkdownIt, { type PluginWithParams, type StateCore, type Token } from 'markdown-it';
import markdownItContainer from 'markdown-it-container';
import type { Node } from 'prosemirror-model';
import { toStorableText } from '#core/domain';
import { MarkdownParser, type ParseSpec } from 'prosemirror-markdown';
import { parseDirectiveHead } from './directives.js';
import { type CalloutVariant, type CellAlignment, contentSchema, isCalloutVariant, isLanguage, MAX_HEADING_LEVEL } from './schema.js';

const DIRECTIVE_NAMES = ['callout', 'steps', 'step', 'cards', 'card'] as const;
type DirectiveName = (typeof DIRECTIVE_NAMES)[number];
/** Which directive a `step` or `card` must sit directly in, and which one its list container accepts. */
const ITEM_PARENT: Partial<Record<DirectiveName, DirectiveName>> = { step: 'steps', card: 'cards' };
const LIST_ITEM: Partial<Record<DirectiveName, DirectiveName>> = { steps: 'step', cards: 'card' };

// @types/markdown-it-container is written against the CommonJS typings of markdown-it; same runtime object.
const container = markdownItContainer as unknown as PluginWithParams;

function createTokenizer(): MarkdownIt {
  // `html: false`: raw HTML in Markdown stays literal text and is escaped on output, never passed through.
  const md = new MarkdownIt('default', { html: false, linkify: false, typographer: false });
  // markdown-it accepts only gif/png/jpeg/webp data URLs; every data:image/ URL is kept so that the image pass
  // can judge it (and say why it refuses it) instead of the image silently turning into text.
  const validateLink = md.validateLink.bind(md);
  md.validateLink = (url: string) => /^data:image\//i.test(url.trim()) || validateLink(url);
  // markdown-it percent-encodes the brackets of an IPv6 host (`http://[::1]/` → `http://%5B::1%5D/`), which makes
  // the URL unusable; they are put back.
  const normalizeLink = md.normalizeLink.bind(md);
  md.normalizeLink = (url: string) => normalizeLink(url).replace(/^([a-z][a-z0-9+.-]*:\/\/(?:[^/?#@]*@)?)%5B([0-9a-f:.]+)%5D/i, '$1[$2]');
  for (const name of DIRECTIVE_NAMES) {
    md.use(container, name, {
      // A head that names another directive or has malformed attributes is not a container, so the
      // line stays an ordinary paragraph line.
      validate: (params: string) => parseDirectiveHead(params)?.name === name,
    });
  }
  md.core.ruler.after('block', 'content_directive_structure', fixDirectiveStructure);
  md.core.ruler.push('content_inline_fixes', fixInlineTokens);
  return md;
}

function containerName(token: Token): DirectiveName | null {
  const match = /^container_(\w+)_open$/.exec(token.type);
  return match && (DIRECTIVE_NAMES as readonly string[]).includes(match[1]) ? (match[1] as DirectiveName) : null;
}

/** Index of the closing token for every opening block token. */
function closers(tokens: readonly Token[]): Int32Array {
  const close = new Int32Array(tokens.length).fill(-1);
  const stack: number[] = [];
  tokens.forEach((token, i) => {
    if (token.nesting === 1) stack.push(i);
    else if (token.nesting === -1) close[stack.pop() ?? 0] = i;
  });
  return close;
}

/**
 * The schema only allows `step` directly in `steps` and `card` directly in `cards`, and those two only
 * hold their items. markdown-it-container cannot know the context, so a misplaced or misfilled directive
 * is turned back into text here: its fence lines become paragraphs and its content moves up a level.
 * Nothing is dropped, and the Markdown serializer escapes such lines so they stay text.
 */
function fixDirectiveStructure(state: StateCore): void {
  const tokens = state.tokens;
  if (!tokens.some((t) => t.type.startsWith('container_'))) return;
  const close = closers(tokens);
  const lines = state.src.split('\n');
  const out: Token[] = [];

  const textParagraph = (text: string, level: number, hidden: boolean): void => {
    const open = new state.Token('paragraph_open', 'p', 1);
    open.block = true;
    open.level = level;
    open.hidden = hidden;
    const inline = new state.Token('inline', '', 0);
    inline.content = text;
    inline.level = level + 1;
    inline.children = [];
    const end = new state.Token('paragraph_close', 'p', -1);
    end.block = true;
    end.level = level;
    end.hidden = hidden;
    out.push(open, inline, end);
  };

  const holdsOnly = (from: number, to: number, item: DirectiveName): boolean => {
    if (from >= to) return false;
    for (let k = from; k < to; k = close[k] + 1) {
      if (containerName(tokens[k]) !== item || close[k] < 0) return false;
    }
    return true;
  };

  // parent: the effective enclosing directive (null for none or a non-directive block);
  // tightItem: paragraphs created here are direct children of a tight list's item.
  const walk = (from: number, to: number, parent: DirectiveName | null, tightItem: boolean): void => {
    for (let i = from; i < to; i++) {
      const token = tokens[i];
      if (token.nesting !== 1) {
        out.push(token);
        continue;
      }
      const end = close[i];
      const name = containerName(token);
      if (name === null) {
        out.push(token);
        const isList = token.type === 'bullet_list_open' || token.type === 'ordered_list_open';
        const childTight = token.type === 'list_item_open' ? tightItem : isList ? listIsTight(tokens, i) : false;
        walk(i + 1, end, null, childTight);
        out.push(tokens[end]);
      } else {
        const required = ITEM_PARENT[name];
        const item = LIST_ITEM[name];
        const valid = (required === undefined || parent === required) && (item === undefined || holdsOnly(i + 1, end, item));
        if (valid) {
          out.push(token);
          walk(i + 1, end, name, false);
          out.push(tokens[end]);
        } else {
          textParagraph(`${token.markup}${token.info}`.trim(), token.level, tightItem);
          walk(i + 1, end, parent, tightItem);
          if (isClosedFence(token, tokens[end], lines)) textParagraph(tokens[end].markup.trim(), token.level, tightItem);
        }
      }
      i = end;
    }
  };
  walk(0, tokens.length, null, false);
  state.tokens = out;
}

/**
 * markdown-it-container closes an unclosed directive at the end of its parent and still emits a close
 * token; only a real closing line may come back as text.
 */
function isClosedFence(open: Token, closeToken: Token, lines: readonly string[]): boolean {
  const markup = closeToken.markup.trim();
  if (!/^:{3,}$/.test(markup) || markup.length < open.markup.length || !open.map) return false;
  const line = lines[open.map[1]];
  return line !== undefined && /^[\s>]*:{3,}[ \t]*$/.test(line);
}

/**
 * markdown-it hides the paragraphs directly inside the items of a tight list. Looking at every direct
 * paragraph (not only the first token, as prosemirror-markdown does) keeps lists whose first item
 * starts with another block tight.
 */
function listIsTight(tokens: readonly Token[], listIndex: number): boolean {
  const itemLevel = tokens[listIndex].level + 2;
  let depth = 0;
  for (let i = listIndex; i < tokens.length; i++) {
    const token = tokens[i];
    depth += token.nesting;
    if (depth === 0) break;
    if (token.type === 'paragraph_open' && token.level === itemLevel) return token.hidden;
  }
  return false;
}

/**
 * Inline constructs the schema cannot hold: a setext heading may contain `\` line breaks (headings are
 * one line), and `![alt]()` is an image without a source. The first become spaces, the second text.
 */
function fixInlineTokens(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const children = tokens[i].children;
    if (tokens[i].type !== 'inline' || !children) continue;
    const inHeading = i > 0 && tokens[i - 1].type === 'heading_open';
    for (const child of children) {
      if (inHeading && child.type === 'hardbreak') child.type = 'softbreak';
      imageWithoutSource(child);
    }
  }
}

function imageWithoutSource(token: Token): void {
  if (token.type !== 'image' || token.attrGet('src')) return;
  token.type = 'text';
  token.content = `![${altText(token.children)}]()`;
  token.children = null;
}

function altText(tokens: readonly Token[] | null): string {
  let alt = '';
  for (const token of tokens ?? []) {
    // Image labels skip the core rule that merges escapes (`text_special`) into text tokens.
    if (token.type === 'text' || token.type === 'text_special' || token.type === 'code_inline') alt += token.content;
    else if (token.type === 'softbreak' || token.type === 'hardbreak') alt += ' ';
    else if (token.type === 'image') alt += altText(token.children);
  }
  return alt;
}

function alignOf(token: Token): { align: CellAlignment | null } {
  const match = /text-align:\s*(left|center|right)/.exec(token.attrGet('style') ?? '');
  return { align: match ? (match[1] as CellAlignment) : null };
}

function directiveAttrs(token: Token): Record<string, string> {
  return parseDirectiveHead(token.info)?.attrs ?? {};
}

function listTight(_token: Token, tokens: Token[], i: number): { tight: boolean } {
  return { tight: listIsTight(tokens, i) };
}

const tokenSpecs: Record<string, ParseSpec> = {
  paragraph: { block: 'paragraph' },
  heading: {
    block: 'heading',
    // h5 and h6 have no place in an article outline: they become the deepest level the schema has.
    getAttrs: (token) => ({ level: Math.min(MAX_HEADING_LEVEL, Number(token.tag.slice(1)) || 1) }),
  },
  blockquote: { block: 'blockquote' },
  bullet_list: { block: 'bullet_list', getAttrs: listTight },
  ordered_list: {
    block: 'ordered_list',
    getAttrs: (token, tokens, i) => ({ order: Number(token.attrGet('start') ?? 1), ...listTight(token, tokens, i) }),
  },
  list_item: { block: 'list_item' },
  code_block: { block: 'code_block', noCloseToken: true },
  fence: {
    block: 'code_block',
    noCloseToken: true,
    getAttrs: (token) => {
      const language = token.info.trim().split(/\s+/)[0];
      // A word the schema refuses is dropped rather than failing the whole document.
      return { language: isLanguage(language) ? language : null };
    },
  },
  hr: { node: 'horizontal_rule' },
  table: { block: 'table' },
  thead: { ignore: true },
  tbody: { ignore: true },
  tr: { block: 'table_row' },
  th: { block: 'table_header', getAttrs: alignOf },
  td: { block: 'table_cell', getAttrs: alignOf },
  image: {
    node: 'image',
    getAttrs: (token) => ({
      src: token.attrGet('src') ?? '',
      alt: altText(token.children) || null,
      title: token.attrGet('title') || null,
    }),
  },
  hardbreak: { node: 'hard_break' },
  em: { mark: 'em' },
  strong: { mark: 'strong' },
  s: { mark: 'strike' },
  link: { mark: 'link', getAttrs: (token) => ({ href: token.attrGet('href') ?? '', title: token.attrGet('title') || null }) },
  code_inline: { mark: 'code', noCloseToken: true },
  container_callout: {
    block: 'callout',
    getAttrs: (token) => {
      // An unknown variant keeps the callout (the author asked for one) with the neutral default.
      const variant = directiveAttrs(token)['variant'];
      return { variant: (isCalloutVariant(variant) ? variant : 'info') satisfies CalloutVariant };
    },
  },
  container_steps: { block: 'steps' },
  container_step: { block: 'step', getAttrs: (token) => ({ title: directiveAttrs(token)['title'] ?? '' }) },
  container_cards: { block: 'cards' },
  container_card: {
    block: 'card',
    getAttrs: (token) => {
      const attrs = directiveAttrs(token);
      return { title: attrs['title'] ?? '', href: attrs['href'] || null };
    },
  },
};

const parser = new MarkdownParser(contentSchema, createTokenizer(), tokenSpecs);

/**
 * Markdown to a document of the content schema. Never throws: input that cannot be read becomes plain text.
 * NUL and unpaired surrogates become U+FFFD, as CommonMark does with NUL (markdown-it replaces only NUL): neither
 * can be stored, and a document read from Markdown, whoever wrote it (a model's output too), must be storable.
 */
export function parseMarkdown(markdown: string): Node {
  const source = toStorableText(typeof markdown === 'string' ? markdown : String(markdown ?? ''));
  try {
    return parser.parse(source);
  } catch {
    return plainTextDocument(source);
  }
}

// Last resort, for input that trips a tokenizer limit or a corner case the token mapping misses.
function plainTextDocument(source: string): Node {
  const paragraphs = source
    .split(/\n[ \t]*\n/)
    .map((block) => block.replace(/\s+/g, ' ').trim())
    .filter((block) => block !== '')
    .map((block) => contentSchema.nodes.paragraph.create(null, contentSchema.text(block)));
  return contentSchema.nodes.doc.createAndFill(null, paragraphs) ?? contentSchema.topNodeType.createAndFill()!;
}
