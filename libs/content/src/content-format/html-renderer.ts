import type { DOMOutputSpec, Mark, Node } from 'prosemirror-model';
import { HeadingIds } from './heading-ids.js';
import { safeHref, safeImageSrc } from './safe-url.js';
import { contentSchema } from './schema.js';

export interface HtmlOptions {
  /** Turns a stored image src (e.g. an asset path) into the URL to publish; the result is then allow-listed. */
  assetUrl?: (src: string) => string;
  /**
   * Level 2 and 3 headings get an `id` made from their text (`headingOutline` lists the same IDs): stable anchors
   * for a table of contents. Off by default: the API's stored and returned HTML carries no IDs.
   */
  headingIds?: boolean;
  /** With `headingIds`: IDs the surrounding page uses, which no heading takes. */
  reservedIds?: readonly string[];
  /**
   * Aligned table cells carry `class="align-left|center|right"` instead of `style="text-align: …"`, for pages whose
   * Content-Security-Policy allows no inline style (the public help center). Off by default: the API's HTML is
   * unchanged.
   */
  alignmentClasses?: boolean;
}

// A string renderer over the schema's toDOM specs, so the HTML is built from the same description a
// browser editor would use. Safety does not depend on toDOM authors: every text and attribute value is
// escaped here, tag and attribute names must be plain identifiers, event handler attributes are never
// written, and href/src values go through the URL allow-lists again.
const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const TAG_NAME = /^[a-z][a-z0-9]*$/;
const ATTR_NAME = /^[a-z][a-z0-9-]*$/;
const TEXT_SPECIAL = /[&<>]/;
const ATTR_SPECIAL = /[&<>"']/;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const knownNames = new Set<string>();

function escapeText(text: string): string {
  return TEXT_SPECIAL.test(text) ? text.replace(/[&<>]/g, (ch) => ESCAPES[ch]) : text;
}

function escapeAttr(value: string): string {
  return ATTR_SPECIAL.test(value) ? value.replace(/[&<>"']/g, (ch) => ESCAPES[ch]) : value;
}

function isName(name: string, pattern: RegExp): boolean {
  if (knownNames.has(name)) return true;
  if (!pattern.test(name)) return false;
  knownNames.add(name);
  return true;
}

function isAttrs(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A spec rendered around its hole: the content goes between `before` and `after`. */
interface SplitSpec {
  before: string;
  after: string;
}

// Specs the schema returns as frozen constants render to the same strings every time.
const splitCache = new WeakMap<object, SplitSpec>();
let buffer = '';
let hole = -1;

/** Appends `spec` to the buffer; the hole gets `content`, or with `content` null its offset is recorded. */
function emit(spec: unknown, top: boolean, content: string | null): void {
  if (typeof spec === 'string') {
    buffer += escapeText(spec);
    return;
  }
  if (!Array.isArray(spec)) throw new Error('toDOM must return a string or an array spec');
  const tag: unknown = spec[0];
  if (typeof tag !== 'string' || !isName(tag, TAG_NAME)) throw new Error(`toDOM returned an invalid tag name: ${String(tag)}`);
  buffer += `<${tag}`;
  let start = 1;
  const attrs: unknown = spec[1];
  if (isAttrs(attrs)) {
    start = 2;
    for (const name in attrs) {
      let value: unknown = attrs[name];
      if (value === null || value === undefined || !isName(name, ATTR_NAME) || name.startsWith('on')) continue;
      if (name === 'href') value = safeHref(value);
      else if (name === 'src') value = safeImageSrc(value);
      if (value !== null) buffer += ` ${name}="${escapeAttr(String(value))}"`;
    }
  }
  buffer += '>';
  if (VOID_ELEMENTS.has(tag)) return;
  for (let i = start; i < spec.length; i++) {
    if (spec[i] !== 0) emit(spec[i], false, content);
    else if (content === null) hole = buffer.length;
    else {
      buffer += content;
      hole = buffer.length;
    }
  }
  // Without a hole, content goes inside the outer element, as with ProseMirror's DOMSerializer.
  if (top && hole < 0) {
    if (content !== null) buffer += content;
    hole = buffer.length;
  }
  buffer += `</${tag}>`;
}

/** Renders a DOMOutputSpec with `content` (already HTML) in its hole. */
function renderSpec(spec: DOMOutputSpec, content: string): string {
  const cached = splitCache.get(spec as object);
  if (cached) return cached.before + content + cached.after;
  const cacheable = typeof spec === 'object' && Object.isFrozen(spec);
  buffer = '';
  hole = -1;
  emit(spec, true, cacheable ? null : content);
  let html = buffer;
  buffer = '';
  if (cacheable) {
    const parts = hole < 0 ? { before: html, after: '' } : { before: html.slice(0, hole), after: html.slice(hole) };
    splitCache.set(spec, parts);
    html = parts.before + content + parts.after;
  }
  return html;
}

class HtmlRenderer {
  constructor(
    private readonly assetUrl: ((src: string) => string) | undefined,
    private readonly headingIds: HeadingIds | null,
    private readonly alignmentClasses: boolean,
  ) {}

  node(node: Node): string {
    if (node.isText) return escapeText(node.text ?? '');
    const toDOM = node.type.spec.toDOM;
    if (!toDOM) return this.children(node);
    if (node.type === IMAGE) return this.image(node, toDOM);
    if (node.type === HEADING && this.headingIds) {
      const id = this.headingIds.next(node);
      if (id !== null) return renderSpec(withId(toDOM(node), id), this.children(node));
    }
    if (this.alignmentClasses && (node.type === TABLE_CELL || node.type === TABLE_HEADER)) {
      const spec = ALIGNED_CELLS.get(`${node.type.name}:${String(node.attrs['align'])}`);
      if (spec) return renderSpec(spec, this.children(node));
    }
    if (node.isLeaf) return renderSpec(toDOM(node), '');
    return renderSpec(toDOM(node), this.children(node));
  }

  children(node: Node): string {
    const children = node.content.content;
    if (node.inlineContent) return this.inline(children, 0, children.length, 0);
    let html = '';
    for (const child of children) html += this.node(child);
    return html;
  }

  /** Marks are sorted in schema order, so runs sharing a mark at `depth` nest under one element. */
  inline(children: readonly Node[], from: number, to: number, depth: number): string {
    let html = '';
    let i = from;
    while (i < to) {
      const node = children[i];
      if (node.marks.length <= depth) {
        html += this.node(node);
        i++;
        continue;
      }
      const mark = node.marks[depth];
      let end = i + 1;
      while (end < to && sharesMark(children[end], mark, depth)) end++;
      const toDOM = mark.type.spec.toDOM;
      const content = this.inline(children, i, end, depth + 1);
      html += toDOM ? renderSpec(toDOM(mark, true), content) : content;
      i = end;
    }
    return html;
  }

  image(node: Node, toDOM: (node: Node) => DOMOutputSpec): string {
    const stored = node.attrs['src'] as string;
    const src = safeImageSrc(this.assetUrl ? this.assetUrl(stored) : stored);
    // An image without an allowed source is left out rather than emitted with a dangerous or empty src.
    if (src === null) return '';
    const spec = toDOM(node);
    if (src === stored || !Array.isArray(spec) || !isAttrs(spec[1])) return renderSpec(spec, '');
    return renderSpec([spec[0], { ...spec[1], src }, ...spec.slice(2)] as unknown as DOMOutputSpec, '');
  }
}

const IMAGE = contentSchema.nodes.image;
const HEADING = contentSchema.nodes.heading;
const TABLE_CELL = contentSchema.nodes.table_cell;
const TABLE_HEADER = contentSchema.nodes.table_header;
/** Frozen, so the renderer caches their split like the schema's own specs. */
const ALIGNED_CELLS = new Map<string, DOMOutputSpec>(
  (['table_cell', 'table_header'] as const).flatMap((name) =>
    (['left', 'center', 'right'] as const).map((align) => {
      const tag = name === 'table_cell' ? 'td' : 'th';
      return [`${name}:${align}`, Object.freeze([tag, Object.freeze({ class: `align-${align}` }), 0] as const) as DOMOutputSpec] as const;
    }),
  ),
);

/** The spec with an `id` attribute on its outer element (escaped like every attribute when rendered). */
function withId(spec: DOMOutputSpec, id: string): DOMOutputSpec {
  if (!Array.isArray(spec)) return spec;
  const hasAttrs = isAttrs(spec[1]);
  return [spec[0], { ...(hasAttrs ? (spec[1] as Record<string, unknown>) : {}), id }, ...spec.slice(hasAttrs ? 2 : 1)] as unknown as DOMOutputSpec;
}

function sharesMark(node: Node, mark: Mark, depth: number): boolean {
  const marks = node.marks;
  return marks.length > depth && (marks[depth] === mark || marks[depth].eq(mark));
}

/** The document as an HTML fragment (no wrapper element). */
export function toHtml(doc: Node, options: HtmlOptions = {}): string {
  const headingIds = options.headingIds ? new HeadingIds({ reservedIds: options.reservedIds }) : null;
  return new HtmlRenderer(options.assetUrl, headingIds, options.alignmentClasses ?? false).children(doc);
}
