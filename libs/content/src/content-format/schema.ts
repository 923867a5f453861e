import { type DOMOutputSpec, type Mark, type Node, Schema } from 'prosemirror-model';
import { safeHref, safeImageSrc } from './safe-url.js';

export const CALLOUT_VARIANTS = ['info', 'warning', 'danger', 'success'] as const;
export type CalloutVariant = (typeof CALLOUT_VARIANTS)[number];
const CELL_ALIGNMENTS = ['left', 'center', 'right'] as const;
export type CellAlignment = (typeof CELL_ALIGNMENTS)[number];
export const MAX_HEADING_LEVEL = 4;
/** markdown-it reads at most nine digits as a list number, so a larger start could not round-trip. */
const MAX_LIST_ORDER = 999_999_999;
const MAX_LANGUAGE_LENGTH = 100;

/**
 * The language is the first word of a fence's info string: whitespace would split it, a backtick is not
 * allowed there, and with a pipe the fence line could read as the header of a table.
 */
export function isLanguage(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value.length <= MAX_LANGUAGE_LENGTH && !/[\s`|]/.test(value);
}

export function isCalloutVariant(value: unknown): value is CalloutVariant {
  return typeof value === 'string' && (CALLOUT_VARIANTS as readonly string[]).includes(value);
}

// Attribute validators run on Node.fromJSON, NodeType.create and node.check(), so stored JSON with a
// wrong type or an out-of-range value is rejected instead of being rendered as something else.
function describeValue(value: unknown): string {
  return value === null ? 'null' : typeof value === 'string' ? JSON.stringify(value) : typeof value === 'object' ? typeof value : String(value);
}

function fail(what: string, value: unknown): never {
  throw new RangeError(`${what}, got ${describeValue(value)}`);
}

const validators = {
  level(value: unknown): void {
    if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > MAX_HEADING_LEVEL) {
      fail(`heading level must be an integer from 1 to ${MAX_HEADING_LEVEL}`, value);
    }
  },
  order(value: unknown): void {
    if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > MAX_LIST_ORDER) {
      fail(`ordered_list order must be an integer from 0 to ${MAX_LIST_ORDER}`, value);
    }
  },
  tight(value: unknown): void {
    if (typeof value !== 'boolean') fail('list tight must be a boolean', value);
  },
  language(value: unknown): void {
    if (value !== null && !isLanguage(value)) {
      fail(`code_block language must be null or a word of at most ${MAX_LANGUAGE_LENGTH} characters without whitespace, backticks or pipes`, value);
    }
  },
  src(value: unknown): void {
    if (typeof value !== 'string' || value === '') fail('image src must be a non-empty string', value);
  },
  href(value: unknown): void {
    if (typeof value !== 'string') fail('link href must be a string', value);
  },
  optionalText(what: string) {
    return (value: unknown): void => {
      if (value !== null && typeof value !== 'string') fail(`${what} must be a string or null`, value);
    };
  },
  text(what: string) {
    return (value: unknown): void => {
      if (typeof value !== 'string') fail(`${what} must be a string`, value);
    };
  },
  variant(value: unknown): void {
    if (!isCalloutVariant(value)) fail(`callout variant must be one of ${CALLOUT_VARIANTS.join(', ')}`, value);
  },
  align(value: unknown): void {
    if (value !== null && !(CELL_ALIGNMENTS as readonly unknown[]).includes(value)) {
      fail(`table cell align must be null or one of ${CELL_ALIGNMENTS.join(', ')}`, value);
    }
  },
};

/** Deep-frozen specs are constants the HTML renderer may cache by identity. */
function constant<T extends readonly unknown[]>(spec: T): T {
  for (const part of spec) if (typeof part === 'object' && part !== null) Object.freeze(part);
  return Object.freeze(spec);
}

function cellSpecs(tag: 'th' | 'td'): Record<CellAlignment | 'none', DOMOutputSpec> {
  const align = (value: CellAlignment): DOMOutputSpec => constant([tag, { style: `text-align: ${value}` }, 0] as const);
  return { none: constant([tag, 0] as const), left: align('left'), center: align('center'), right: align('right') };
}

const SPECS = {
  p: constant(['p', 0] as const),
  blockquote: constant(['blockquote', 0] as const),
  ul: constant(['ul', 0] as const),
  ol: constant(['ol', 0] as const),
  li: constant(['li', 0] as const),
  pre: constant(['pre', constant(['code', 0] as const)] as const),
  hr: constant(['hr'] as const),
  br: constant(['br'] as const),
  table: constant(['table', constant(['tbody', 0] as const)] as const),
  tr: constant(['tr', 0] as const),
  steps: constant(['ol', { class: 'steps' }, 0] as const),
  cards: constant(['div', { class: 'cards' }, 0] as const),
  em: constant(['em', 0] as const),
  strong: constant(['strong', 0] as const),
  s: constant(['s', 0] as const),
  code: constant(['code', 0] as const),
  headings: [1, 2, 3, 4].map((level) => constant([`h${level}`, 0] as const)),
  callouts: new Map(CALLOUT_VARIANTS.map((variant) => [variant, constant(['div', { class: `callout callout-${variant}` }, 0] as const)])),
  th: cellSpecs('th'),
  td: cellSpecs('td'),
};

// toDOM output is also what the HTML renderer prints, so every function here stays safe on its own even
// for attribute values that bypassed validation: tag names are fixed, URLs go through the allow-lists.
function headingSpec(level: unknown): DOMOutputSpec {
  return SPECS.headings[Number.isInteger(level) && (level as number) >= 1 && (level as number) <= MAX_HEADING_LEVEL ? (level as number) - 1 : MAX_HEADING_LEVEL - 1];
}

function cellSpec(tag: 'th' | 'td', node: Node): DOMOutputSpec {
  const align = node.attrs['align'] as unknown;
  return SPECS[tag][(CELL_ALIGNMENTS as readonly unknown[]).includes(align) ? (align as CellAlignment) : 'none'];
}

function titled(tag: string, cls: string, title: unknown): DOMOutputSpec[] {
  return typeof title === 'string' && title !== '' ? [[tag, { class: cls }, title]] : [];
}

export const contentSchema = new Schema({
  nodes: {
    doc: { content: 'block+' },
    paragraph: {
      content: 'inline*',
      group: 'block',
      toDOM: () => SPECS.p,
    },
    heading: {
      attrs: { level: { default: 1, validate: validators.level } },
      // Markdown headings hold one line: no hard breaks.
      content: '(text | image)*',
      group: 'block',
      defining: true,
      toDOM: (node) => headingSpec(node.attrs['level']),
    },
    blockquote: {
      content: 'block+',
      group: 'block',
      defining: true,
      toDOM: () => SPECS.blockquote,
    },
    bullet_list: {
      attrs: { tight: { default: false, validate: validators.tight } },
      content: 'list_item+',
      group: 'block',
      toDOM: () => SPECS.ul,
    },
    ordered_list: {
      attrs: { order: { default: 1, validate: validators.order }, tight: { default: false, validate: validators.tight } },
      content: 'list_item+',
      group: 'block',
      toDOM: (node) => {
        const order = node.attrs['order'] as unknown;
        return Number.isInteger(order) && order !== 1 ? ['ol', { start: String(order) }, 0] : SPECS.ol;
      },
    },
    list_item: {
      content: 'block+',
      defining: true,
      toDOM: () => SPECS.li,
    },
    code_block: {
      attrs: { language: { default: null, validate: validators.language } },
      content: 'text*',
      marks: '',
      group: 'block',
      code: true,
      defining: true,
      toDOM: (node) => {
        const language = node.attrs['language'] as unknown;
        return typeof language === 'string' && language !== '' ? ['pre', ['code', { class: `language-${language}` }, 0]] : SPECS.pre;
      },
    },
    horizontal_rule: {
      group: 'block',
      toDOM: () => SPECS.hr,
    },
    table: {
      content: 'table_row+',
      group: 'block',
      isolating: true,
      toDOM: () => SPECS.table,
    },
    table_row: {
      content: '(table_header | table_cell)+',
      toDOM: () => SPECS.tr,
    },
    // A GFM pipe-table cell is one line of inline Markdown: text and images with marks, no hard breaks.
    table_header: {
      attrs: { align: { default: null, validate: validators.align } },
      content: '(text | image)*',
      isolating: true,
      toDOM: (node) => cellSpec('th', node),
    },
    table_cell: {
      attrs: { align: { default: null, validate: validators.align } },
      content: '(text | image)*',
      isolating: true,
      toDOM: (node) => cellSpec('td', node),
    },
    callout: {
      attrs: { variant: { default: 'info', validate: validators.variant } },
      content: 'block+',
      group: 'block',
      defining: true,
      toDOM: (node) => {
        const variant = node.attrs['variant'] as unknown;
        return SPECS.callouts.get(isCalloutVariant(variant) ? variant : 'info')!;
      },
    },
    steps: {
      content: 'step+',
      group: 'block',
      toDOM: () => SPECS.steps,
    },
    step: {
      attrs: { title: { default: '', validate: validators.text('step title') } },
      content: 'block+',
      defining: true,
      toDOM: (node) => ['li', { class: 'step' }, ...titled('h3', 'step-title', node.attrs['title']), ['div', { class: 'step-content' }, 0]],
    },
    cards: {
      content: 'card+',
      group: 'block',
      toDOM: () => SPECS.cards,
    },
    card: {
      attrs: {
        title: { default: '', validate: validators.text('card title') },
        href: { default: null, validate: validators.optionalText('card href') },
      },
      content: 'block*',
      defining: true,
      toDOM: (node) => {
        const href = node.attrs['href'] === null ? null : safeHref(node.attrs['href']);
        const inner = [...titled('h3', 'card-title', node.attrs['title']), ['div', { class: 'card-content' }, 0]];
        return href === null ? ['div', { class: 'card' }, ...inner] : ['a', { class: 'card', href }, ...inner];
      },
    },
    text: { group: 'inline' },
    image: {
      inline: true,
      group: 'inline',
      draggable: true,
      attrs: {
        src: { validate: validators.src },
        alt: { default: null, validate: validators.optionalText('image alt') },
        title: { default: null, validate: validators.optionalText('image title') },
      },
      toDOM: (node) => ['img', { src: safeImageSrc(node.attrs['src']), alt: node.attrs['alt'], title: node.attrs['title'] }],
    },
    hard_break: {
      inline: true,
      group: 'inline',
      selectable: false,
      toDOM: () => SPECS.br,
    },
  },
  // Order is nesting order: a link wraps its emphasis, and code stays innermost, where the Markdown
  // serializer expects an unescaped mark.
  marks: {
    link: {
      attrs: {
        href: { validate: validators.href },
        title: { default: null, validate: validators.optionalText('link title') },
      },
      inclusive: false,
      toDOM: (mark: Mark) => ['a', { href: safeHref(mark.attrs['href']), title: mark.attrs['title'] }, 0],
    },
    em: { toDOM: () => SPECS.em },
    strong: { toDOM: () => SPECS.strong },
    strike: { toDOM: () => SPECS.s },
    code: { code: true, toDOM: () => SPECS.code },
  },
});

/** Nodes written as `:::name{…}` container directives in Markdown. */
export const DIRECTIVE_NODES = new Set(['callout', 'steps', 'step', 'cards', 'card']);
