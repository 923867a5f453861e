import type { Mark, Node } from 'prosemirror-model';
import { MarkdownSerializer, MarkdownSerializerState } from 'prosemirror-markdown';
import { formatDirectiveHead } from './directives.js';
import { DIRECTIVE_NODES } from './schema.js';

type NodeWriter = (state: MarkdownSerializerState, node: Node, parent: Node, index: number) => void;
type MarkSpec = MarkdownSerializer['marks'][string];

/**
 * Fields and methods of MarkdownSerializerState that prosemirror-markdown 1.13 keeps out of its typings (its
 * constructor too, see StateBase). The subclass below needs them to know where lines start. The version is
 * pinned exactly in package.json, and markdown-serializer.spec.ts checks each of them on a real upstream state,
 * so an upgrade that renames or changes one fails there rather than in the Markdown a reader gets.
 */
export interface StateInternals {
  out: string;
  closed: Node | null;
  atBlockStart: boolean;
  inAutolink: boolean | undefined;
  flushClose(size?: number): void;
  atBlank(): boolean;
  getMark(name: string): MarkSpec;
}

export const internals = (state: MarkdownSerializerState): StateInternals => state as unknown as StateInternals;

// Characters that start Markdown syntax anywhere in a line. `_` inside a word is left alone (it cannot
// emphasise there); `<` only before what could open an autolink; `&` only before an entity reference.
const INLINE_SPECIAL = /[`*\\~[\]_]|<(?=[A-Za-z/!?])|&(?=#?[A-Za-z0-9]+;)/g;
// At a line start: list markers, block quotes, ATX headings, setext and table delimiter rows, and the
// colons of a directive fence. `*`, `_`, `~` and backticks are already escaped by INLINE_SPECIAL.
const LINE_START_MARK = /^([ \t]*)([-+>#|:=])/;
const LINE_START_NUMBER = /^([ \t]*\d{1,9})([.)])(?=\s|$)/;
const ENTITY_AMP = /&(?=#?[A-Za-z0-9]+;)/g;

function isIntraword(text: string, i: number): boolean {
  return i > 0 && i + 1 < text.length && /\w/.test(text[i - 1]) && /\w/.test(text[i + 1]);
}

/** The upstream state class with its constructor, which its typings keep internal. */
export const StateBase = MarkdownSerializerState as unknown as new (
  nodes: MarkdownSerializer['nodes'],
  marks: MarkdownSerializer['marks'],
  options: MarkdownSerializerState['options'],
) => MarkdownSerializerState;

/**
 * Escapes at every line start, not only at a block's first line (text after a hard break can otherwise
 * turn into a list item, a heading or a directive fence), and escapes a few more characters than the
 * upstream state does, so that text always comes back as the same text.
 */
class ContentMarkdownState extends StateBase {
  /** Inside a table cell nothing is at a line start. */
  inCell = false;
  /** Bullets of the enclosing bullet lists, innermost last. */
  bullets: string[] = [];
  /** The bullet each rendered list used, so that the next list beside it can pick the other one. */
  listBullets = new WeakMap<Node, string>();

  override text(text: string, escape = true): void {
    const self = internals(this);
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const lineStart = !this.inCell && (self.atBlockStart || self.atBlank());
      this.write();
      // A `[` opening a link right after a literal `!` would read as an image.
      if (!escape && lines[i][0] === '[' && /(^|[^\\])!$/.test(self.out.slice(-2))) {
        self.out = `${self.out.slice(0, -1)}\\!`;
      }
      self.out += escape ? this.esc(lines[i], lineStart) : lines[i];
      if (i !== lines.length - 1) self.out += '\n';
    }
  }

  /**
   * Upstream renderInline with one change: marks opened together are nested by how long they last, the
   * longest outermost. Upstream opens them in schema order, so `em` inside a longer `strong` run was
   * opened first and had to close (and reopen) everything, which moved spaces out of the marks.
   */
  override renderInline(parent: Node, fromBlockStart = true): void {
    const self = internals(this);
    self.atBlockStart = fromBlockStart;
    const active: Mark[] = [];
    let trailing = '';
    const progress = (current: Node | null, index: number): void => {
      let node = current;
      let marks: readonly Mark[] = node ? node.marks : [];
      // Marks on a hard break that ends them would put the break before a closing delimiter.
      if (node && node.type.name === 'hard_break') {
        marks = marks.filter((m) => {
          if (index + 1 === parent.childCount) return false;
          const next = parent.child(index + 1);
          return m.isInSet(next.marks) && (!next.isText || /\S/.test(next.text ?? ''));
        });
      }
      const inner = marks.length ? marks[marks.length - 1] : null;
      const noEsc = inner !== null && self.getMark(inner.type.name).escape === false;
      const len = marks.length - (noEsc ? 1 : 0);
      marks = [...nestingOrder(marks.slice(0, len), active, parent, index), ...marks.slice(len)];

      let keep = 0;
      while (keep < Math.min(active.length, len) && marks[keep].eq(active[keep])) ++keep;

      let leading = trailing;
      trailing = '';
      if (
        node &&
        node.isText &&
        marks.some((mark) => self.getMark(mark.type.name).expelEnclosingWhitespace && !active.some((m, i) => i < keep && m.eq(mark)))
      ) {
        const [, lead, rest] = /^(\s*)(.*)$/m.exec(node.text ?? '') ?? ['', '', ''];
        if (lead) {
          leading += lead;
          node = rest ? node.type.schema.text(rest, node.marks) : null;
          if (!node) marks = active;
        }
      }
      if (
        node &&
        node.isText &&
        marks.some((mark, i) => self.getMark(mark.type.name).expelEnclosingWhitespace && !marksAhead(parent, index + 1, marks.slice(0, i + 1)))
      ) {
        const [, rest, trail] = /^(.*?)(\s*)$/m.exec(node.text ?? '') ?? ['', '', ''];
        if (trail) {
          trailing = trail;
          node = rest ? node.type.schema.text(rest, node.marks) : null;
          if (!node) marks = active;
        }
      }

      if (node || index === parent.childCount) {
        while (keep < active.length) this.text(this.markString(active.pop()!, false, parent, index), false);
      }
      if (leading) this.text(leading);
      if (node) {
        while (active.length < len) {
          const add = marks[active.length];
          active.push(add);
          this.text(this.markString(add, true, parent, index), false);
          self.atBlockStart = false;
        }
        if (noEsc && node.isText) {
          this.text(this.markString(inner!, true, parent, index) + node.text + this.markString(inner!, false, parent, index + 1), false);
        } else {
          this.render(node, parent, index);
        }
        self.atBlockStart = false;
      }
    };
    parent.forEach((child, _offset, index) => progress(child, index));
    progress(null, parent.childCount);
    self.atBlockStart = false;
  }

  override esc(text: string, startOfLine = false): string {
    let out = text.replace(INLINE_SPECIAL, (m: string, i: number) => (m === '_' && isIntraword(text, i) ? m : `\\${m}`));
    if (startOfLine) out = out.replace(LINE_START_MARK, '$1\\$2').replace(LINE_START_NUMBER, '$1\\$2');
    return out;
  }
}

/** How many inline nodes from `index` on carry `mark` (hard breaks do not end a run). */
function runLength(parent: Node, index: number, mark: Mark): number {
  let end = index;
  while (end < parent.childCount && mark.isInSet(parent.child(end).marks)) end++;
  return end - index;
}

/** Whether the next inline node (past hard breaks) carries all of `marks`, in whatever order they nest. */
function marksAhead(parent: Node, index: number, marks: readonly Mark[]): boolean {
  for (let i = index; i < parent.childCount; i++) {
    const next = parent.child(i);
    if (next.type.name !== 'hard_break') return marks.every((mark) => mark.isInSet(next.marks));
  }
  return false;
}

/** Marks still open keep their order; the ones to open follow, longest run first (outermost). */
function nestingOrder(marks: readonly Mark[], active: readonly Mark[], parent: Node, index: number): Mark[] {
  const kept = active.filter((mark) => mark.isInSet(marks));
  const opened = marks.filter((mark) => !mark.isInSet(kept));
  if (opened.length > 1) {
    const runs = new Map(opened.map((mark) => [mark, runLength(parent, index, mark)]));
    opened.sort((a, b) => runs.get(b)! - runs.get(a)!);
  }
  return [...kept, ...opened];
}

function singleLine(text: string): string {
  return text.replace(/\r\n?|\n/g, ' ');
}

/** A link or image destination: bare when it can be, in `<…>` when it holds spaces or angle brackets. */
function destination(url: string): string {
  const clean = url.replace(/[\r\n]/g, encodeURIComponent);
  if (clean === '' || /[\s<>]/.test(clean)) return `<${clean.replace(/[<>\\]/g, '\\$&').replace(ENTITY_AMP, '\\&')}>`;
  return clean.replace(/[()\\]/g, '\\$&').replace(ENTITY_AMP, '\\&');
}

function titlePart(title: unknown): string {
  if (typeof title !== 'string' || title === '') return '';
  return ` "${singleLine(title).replace(/[\\"]|&(?=#?[A-Za-z0-9]+;)/g, '\\$&')}"`;
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const ch of text) {
    run = ch === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/** Longest line made only of colons: markdown-it-container closes a directive on such a line, even in code. */
function longestColonLine(text: string): number {
  let longest = 0;
  for (const line of text.split('\n')) {
    const match = /^[ \t]*(:+)[ \t]*$/.exec(line);
    if (match && match[1].length > longest) longest = match[1].length;
  }
  return longest;
}

/**
 * Fences grow by one colon per nesting level: the innermost directive gets `:::`, each one around it
 * one more, and every fence is longer than any colon-only line of code inside it.
 */
function fenceLength(node: Node): number {
  let inner = 2;
  node.descendants((child) => {
    if (DIRECTIVE_NODES.has(child.type.name)) {
      inner = Math.max(inner, fenceLength(child));
      return false;
    }
    if (child.type.name === 'code_block') inner = Math.max(inner, longestColonLine(child.textContent));
    return !child.isTextblock;
  });
  return inner + 1;
}

/** Items of `steps` and `cards` share one fence length, the longest any of them needs. */
function itemFenceLength(list: Node): number {
  let longest = 3;
  list.forEach((item) => {
    longest = Math.max(longest, fenceLength(item));
  });
  return longest;
}

function directive(name: string, attrs: (node: Node) => ReadonlyArray<readonly [string, string | null]> = () => []): NodeWriter {
  return (state, node, parent) => {
    const isItem = parent.type.name === 'steps' || parent.type.name === 'cards';
    const fence = ':'.repeat(isItem ? itemFenceLength(parent) : fenceLength(node));
    const head = `${fence}${formatDirectiveHead(name, attrs(node))}`;
    state.write(head);
    state.ensureNewLine();
    // With a pipe in the head, a first content line like `| - |` would make the head a table header.
    if (head.includes('|')) state.write('\n');
    state.renderContent(node);
    internals(state).flushClose(1);
    state.write(fence);
    state.closeBlock(node);
  };
}

/**
 * Adjacent lists of one type alternate their markers (`*`/`-`, `.`/`)`): a different marker ends the
 * previous list, the same one would merge both into one list.
 */
function alternate(state: MarkdownSerializerState, node: Node, parent: Node, index: number): boolean {
  let run = 0;
  for (let i = index - 1; i >= 0 && parent.child(i).type === node.type; i--) run++;
  // With a marker change one blank line is enough; renderList would add a second one.
  if (run > 0) internals(state).flushClose(2);
  return run % 2 === 1;
}

function cellMarkdown(cell: Node): string {
  const state = new ContentMarkdownState(serializer.nodes, serializer.marks, {});
  state.inCell = true;
  state.renderInline(cell, false);
  return singleLine(internals(state).out).replace(/\|/g, '\\|').trim();
}

const ALIGN_DELIMITER: Record<string, string> = { left: ':---', center: ':---:', right: '---:' };

const nodes: Record<string, NodeWriter> = {
  paragraph(state, node) {
    state.renderInline(node);
    state.closeBlock(node);
  },
  heading(state, node) {
    state.write(`${'#'.repeat(node.attrs['level'] as number)} `);
    state.renderInline(node, false);
    // A trailing run of `#` would be read as the optional closing sequence and dropped.
    const self = internals(state);
    if (self.out.endsWith('#')) self.out = `${self.out.slice(0, -1)}\\#`;
    state.closeBlock(node);
  },
  blockquote(state, node) {
    state.wrapBlock('> ', null, node, () => state.renderContent(node));
  },
  bullet_list(state, node, parent, index) {
    const { bullets, listBullets } = state as ContentMarkdownState;
    const previous = alternate(state, node, parent, index) ? listBullets.get(parent.child(index - 1)) : undefined;
    let bullet = previous === '*' ? '-' : '*';
    // A list opening its parent item shares the line: `* * *` would be a thematic break.
    if (parent.type.name === 'list_item' && index === 0 && bullets[bullets.length - 1] === bullet) bullet = '-';
    listBullets.set(node, bullet);
    bullets.push(bullet);
    state.renderList(node, '  ', () => `${bullet} `);
    bullets.pop();
  },
  ordered_list(state, node, parent, index) {
    const delimiter = alternate(state, node, parent, index) ? ')' : '.';
    const start = node.attrs['order'] as number;
    const width = String(start + node.childCount - 1).length;
    // Numbers are padded after the delimiter, not before: a leading space would move the content column
    // of an enclosing list item whose first line this is.
    state.renderList(node, ' '.repeat(width + 2), (i) => {
      const number = String(start + i);
      return `${number}${delimiter}${' '.repeat(width - number.length + 1)}`;
    });
  },
  list_item(state, node) {
    state.renderContent(node);
  },
  code_block(state, node) {
    const language = (node.attrs['language'] as string | null) ?? '';
    const code = node.textContent;
    const fence = '`'.repeat(Math.max(3, longestRun(code, '`') + 1));
    state.write(`${fence}${language}\n`);
    state.text(code, false);
    state.write('\n');
    state.write(fence);
    state.closeBlock(node);
  },
  horizontal_rule(state, node, parent, index) {
    // `- ---` or `* ***` would be one rule instead of a list item holding a rule.
    state.write(parent.type.name === 'list_item' && index === 0 ? '___' : '---');
    state.closeBlock(node);
  },
  table(state, node) {
    const rows: string[][] = [];
    let width = 0;
    node.forEach((row) => {
      const cells: string[] = [];
      row.forEach((cell) => cells.push(cellMarkdown(cell)));
      rows.push(cells);
      width = Math.max(width, cells.length);
    });
    // GFM drops cells beyond the header's count and pads short rows, so every row gets the widest count.
    const line = (cells: string[]): string => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
    const aligns: string[] = [];
    node.firstChild?.forEach((cell) => aligns.push(ALIGN_DELIMITER[cell.attrs['align'] as string] ?? '---'));
    const delimiterRow = Array.from({ length: width }, (_, k) => aligns[k] ?? '---');
    [rows[0], delimiterRow, ...rows.slice(1)].forEach((cells, i) => {
      if (i > 0) state.ensureNewLine();
      state.write(line(cells));
    });
    state.closeBlock(node);
  },
  callout: directive('callout', (node) => [['variant', node.attrs['variant'] as string]]),
  steps: directive('steps'),
  step: directive('step', (node) => [['title', node.attrs['title'] as string]]),
  cards: directive('cards'),
  card: directive('card', (node) => [
    ['title', node.attrs['title'] as string],
    ['href', node.attrs['href'] as string | null],
  ]),
  image(state, node) {
    const alt = state.esc(singleLine((node.attrs['alt'] as string | null) ?? ''));
    state.write(`![${alt}](${destination(node.attrs['src'] as string)}${titlePart(node.attrs['title'])})`);
  },
  hard_break(state, node, parent, index) {
    // A break at the end of a block has no Markdown form; it is only written when content follows.
    for (let i = index + 1; i < parent.childCount; i++) {
      if (parent.child(i).type !== node.type) {
        state.write('\\\n');
        return;
      }
    }
  },
  text(state, node) {
    state.text(node.text ?? '', !internals(state).inAutolink);
  },
};

const AUTOLINKABLE = /^(?:https?:\/\/|mailto:)[A-Za-z0-9\-._~:/?#@!$&'*+,;=]+$/;

/** A link whose text is exactly its plain URL is written as an autolink, `<https://…>`. */
function isPlainUrl(link: Mark, parent: Node, index: number): boolean {
  const href = link.attrs['href'] as string;
  if (link.attrs['title'] || !AUTOLINKABLE.test(href)) return false;
  const content = parent.child(index);
  if (!content.isText || content.text !== href || content.marks.length !== 1 || content.marks[0] !== link) return false;
  return index === parent.childCount - 1 || !link.isInSet(parent.child(index + 1).marks);
}

/** Backtick string for a code span: longer than any run inside, padded when the content needs it. */
function codeTicks(node: Node, side: 'open' | 'close'): string {
  const text = node.isText ? (node.text ?? '') : '';
  const ticks = '`'.repeat(longestRun(text, '`') + 1);
  const pad = /^[ `]|[ `]$/.test(text) && /[^ ]/.test(text);
  if (!pad) return ticks;
  return side === 'open' ? `${ticks} ` : ` ${ticks}`;
}

const marks: Record<string, MarkSpec> = {
  em: { open: '*', close: '*', mixable: true, expelEnclosingWhitespace: true },
  strong: { open: '**', close: '**', mixable: true, expelEnclosingWhitespace: true },
  strike: { open: '~~', close: '~~', mixable: true, expelEnclosingWhitespace: true },
  link: {
    open(state, mark, parent, index) {
      const autolink = isPlainUrl(mark, parent, index);
      internals(state).inAutolink = autolink;
      return autolink ? '<' : '[';
    },
    close(state, mark) {
      const self = internals(state);
      const autolink = self.inAutolink;
      self.inAutolink = undefined;
      return autolink ? '>' : `](${destination(mark.attrs['href'] as string)}${titlePart(mark.attrs['title'])})`;
    },
    mixable: true,
  },
  code: {
    open: (_state, _mark, parent, index) => codeTicks(parent.child(index), 'open'),
    close: (_state, _mark, parent, index) => codeTicks(parent.child(index - 1), 'close'),
    escape: false,
  },
};

const serializer = new MarkdownSerializer(nodes, marks);

/** The document as CommonMark + GFM tables and strikethrough, custom nodes as `:::` container directives. */
export function toMarkdown(doc: Node): string {
  const state = new ContentMarkdownState(serializer.nodes, serializer.marks, {});
  state.renderContent(doc);
  return internals(state).out;
}
