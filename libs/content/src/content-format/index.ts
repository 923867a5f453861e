// The article body format: one ProseMirror schema and pure converters between its JSON, Markdown and HTML.
import { Fragment, type Node } from 'prosemirror-model';
import { type HtmlOptions, toHtml } from './html-renderer.js';
import { toMarkdown } from './markdown-serializer.js';
import { safeHref, type UnsafeLink } from './safe-url.js';

export type { UnsafeLink } from './safe-url.js';
export { contentSchema, CALLOUT_VARIANTS, type CalloutVariant } from './schema.js';
export { parseMarkdown } from './markdown-parser.js';
export { toMarkdown } from './markdown-serializer.js';
export { toHtml, type HtmlOptions } from './html-renderer.js';
export { headingOutline, headingSlug, type HeadingAnchor, type HeadingIdOptions } from './heading-ids.js';
export { fromJson, MAX_CONTENT_DEPTH } from './json.js';

export interface RenderedContent {
  json: Record<string, unknown>;
  markdown: string;
  html: string;
}

/** Every image src in document order (duplicates kept), e.g. to upload them before saving. */
export function imageSources(doc: Node): string[] {
  const sources: string[] = [];
  doc.descendants((node) => {
    if (node.type.name === 'image') sources.push(node.attrs['src'] as string);
  });
  return sources;
}

/** The same document with every image src passed through `map`; untouched subtrees are shared, not copied. */
export function mapImageSources(doc: Node, map: (src: string) => string): Node {
  return mapNode(doc, map);
}

function mapNode(node: Node, map: (src: string) => string): Node {
  if (node.type.name === 'image') {
    const src = node.attrs['src'] as string;
    const next = map(src);
    return next === src ? node : node.type.create({ ...node.attrs, src: next }, null, node.marks);
  }
  if (node.isLeaf || node.childCount === 0) return node;
  let changed = false;
  const children: Node[] = [];
  node.forEach((child) => {
    const mapped = mapNode(child, map);
    if (mapped !== child) changed = true;
    children.push(mapped);
  });
  return changed ? node.copy(Fragment.from(children)) : node;
}

/**
 * JSON, Markdown and HTML of one document at once, e.g. for an article response or a search index. The JSON keeps
 * image sources as stored; `assetUrl` turns them into the URLs readers load in the Markdown and the HTML.
 */
export function renderContent(doc: Node, options: HtmlOptions = {}): RenderedContent {
  const readable = options.assetUrl ? mapImageSources(doc, options.assetUrl) : doc;
  return { json: doc.toJSON() as Record<string, unknown>, markdown: toMarkdown(readable), html: toHtml(readable) };
}

/**
 * Link targets the renderer would drop (`javascript:`, `data:`, `vbscript:`, any scheme but http, https and mailto),
 * in link marks and card hrefs. Refused when a body is written, so no stored format (JSON, Markdown) carries one.
 */
export function unsafeLinks(doc: Node): UnsafeLink[] {
  const found: UnsafeLink[] = [];
  doc.descendants((node) => {
    const card = node.type.name === 'card' ? node.attrs['href'] : null;
    if (typeof card === 'string' && safeHref(card) === null) found.push({ where: 'card href', href: card });
    for (const mark of node.marks) {
      const href = mark.type.name === 'link' ? mark.attrs['href'] : null;
      if (typeof href === 'string' && safeHref(href) === null) found.push({ where: 'link href', href });
    }
  });
  return found;
}
