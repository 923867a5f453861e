import type { Node } from 'prosemirror-model';

/** Heading levels that get an anchor and a table of contents entry. */
const ANCHORED_LEVELS: ReadonlySet<number> = new Set([2, 3]);

const MAX_ID_LENGTH = 64;

/** One entry of a document's table of contents: a level 2 or 3 heading, its anchor and its text. */
export interface HeadingAnchor {
  /** The heading's `id` in the HTML `toHtml` renders with `headingIds`. */
  readonly id: string;
  readonly text: string;
  readonly level: number;
}

export interface HeadingIdOptions {
  /**
   * IDs the page around the fragment uses (e.g. `feedback`): no heading takes one; a heading whose text would
   * give one gets the next free suffix (`feedback-2`).
   */
  readonly reservedIds?: readonly string[];
}

/** The anchor of a heading's text: lowercase letters and digits (any script, accents dropped) joined by dashes. */
export function headingSlug(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  const cut = [...slug].slice(0, MAX_ID_LENGTH).join('').replace(/-+$/g, '');
  return cut || 'section';
}

/**
 * Hands out heading IDs in document order: the slug of the text, `-2`, `-3`… for a text met again, never one
 * already given or reserved. The same document always gets the same IDs.
 */
export class HeadingIds {
  private readonly taken: Set<string>;

  constructor(options: HeadingIdOptions = {}) {
    this.taken = new Set(options.reservedIds ?? []);
  }

  /** The ID of a heading, or null for a level without anchors. */
  next(node: Node): string | null {
    if (!ANCHORED_LEVELS.has(node.attrs['level'] as number)) return null;
    const base = headingSlug(headingText(node));
    let id = base;
    for (let n = 2; this.taken.has(id); n++) id = `${base}-${n}`;
    this.taken.add(id);
    return id;
  }
}

/** A heading's text on one line. */
function headingText(node: Node): string {
  return node.textContent.replace(/\s+/g, ' ').trim();
}

/** The level 2 and 3 headings of `doc` in document order, with the IDs `toHtml(doc, { headingIds: true })` gives them. */
export function headingOutline(doc: Node, options: HeadingIdOptions = {}): HeadingAnchor[] {
  const ids = new HeadingIds(options);
  const outline: HeadingAnchor[] = [];
  doc.descendants((node) => {
    if (node.type.name !== 'heading') return true;
    const id = ids.next(node);
    if (id !== null) outline.push({ id, text: headingText(node), level: node.attrs['level'] as number });
    return false;
  });
  return outline;
}
