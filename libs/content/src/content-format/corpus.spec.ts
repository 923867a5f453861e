import { describe, expect, it } from '@jest/globals';
import type { Mark, Node } from 'prosemirror-model';
import { contentSchema, fromJson, parseMarkdown, toHtml, toMarkdown } from './index.js';

// Property-style check over generated documents. The generator only builds documents Markdown can
// express exactly (no empty paragraphs, no leading or trailing spaces, list tightness that Markdown can
// show), so besides stability it also checks that Markdown loses nothing. With marks nested three deep,
// CommonMark may read a delimiter squeezed between punctuation (`~~**![`) differently; such documents
// only have to be stable after the first reading.

/** mulberry32: small, fast, deterministic. */
class Random {
  constructor(private state: number) {}

  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}

const s = contentSchema;
const WORDS = [
  'alpha', 'Beta', 'gamma', 'settings', 'account', 'ünïcödé', 'naïve', 'ça', '日本語', 'Ελληνικά', 'עברית', '👋🏽', 'e\u0301',
  'snake_case', 'a*b', '**bold**', '_under_', 'x_y_z', '[tag]', 'link](x)', 'pipe|bar', '|', '#hash', 'C#', '50%', 'a&b', '&amp;',
  '&#42;', '<tag>', '<https://x.y>', '"quoted"', "it's", 'back\\slash', 'end\\', 'tilde~x', '~~', '`tick`', '1.', '2)', '-dash',
  '+plus', '>gt', '=eq', ':::', '::::callout', 'colon:', 'x!', '![', '{brace}', '—', '…', 'Ω≈√', 'https://example.com', '*', '_',
];
const CODE_LINES = ['const a = 1;', '  indented()', '', '```', '~~~', ':::', '::::', '<script>alert(1)</script>', '| a | b |', '\\', '# not a heading', '日本語', '\ttab'];
const LANGUAGES = [null, 'ts', 'js', 'c++', 'shell-session', 'objective_c'];
const HREFS = ['https://example.com/a_b?x=1&y=2#frag', '/docs/page', '#anchor', 'mailto:help@example.com', '../up', 'https://e.com/p(1)', 'page.html'];
const SRCS = ['/img/a.png', 'user-images/ab12cd.png', 'https://cdn.example.com/x_y.png?size=2&v=1', 'pic(1).png', 'data:image/png;base64,iVBORw0KGgo='];
const ALIGNS = [null, 'left', 'center', 'right'] as const;
const VARIANTS = ['info', 'warning', 'danger', 'success'] as const;
const PLAIN_MARKS = ['em', 'strong', 'strike'] as const;

class Generator {
  constructor(
    private readonly random: Random,
    private readonly maxMarkDepth = 2,
  ) {}

  words(min: number, max: number): string {
    return Array.from({ length: this.random.int(min, max) }, () => this.random.pick(WORDS)).join(' ');
  }

  optionalText(): string | null {
    return this.random.chance(0.5) ? this.words(1, 3) : null;
  }

  /** Inline items separated by unmarked spaces (or hard breaks), each item possibly wrapped in marks. */
  inline(options: { breaks: boolean; images: boolean }, marks: readonly Mark[] = [], depth = 0): Node[] {
    const nodes: Node[] = [];
    const count = this.random.int(1, depth ? 3 : 5);
    for (let i = 0; i < count; i++) {
      if (i > 0) {
        if (options.breaks && depth === 0 && this.random.chance(0.15)) nodes.push(s.nodes.hard_break.create());
        else nodes.push(s.text(' ', marks));
      }
      nodes.push(...this.item(options, marks, depth));
    }
    return nodes;
  }

  item(options: { breaks: boolean; images: boolean }, marks: readonly Mark[], depth: number): Node[] {
    const roll = this.random.next();
    const has = (name: string): boolean => marks.some((m) => m.type.name === name);
    if (depth < this.maxMarkDepth && roll < 0.3) {
      const free = PLAIN_MARKS.filter((name) => !has(name));
      if (free.length) return this.inline(options, s.mark(this.random.pick(free)).addToSet(marks), depth + 1);
    }
    if (depth < this.maxMarkDepth && roll < 0.4 && !has('link')) {
      const href = this.random.pick(HREFS);
      const link = s.mark('link', { href, title: this.optionalText() });
      // Text equal to a plain URL is written as an autolink.
      if (href.startsWith('https://') && link.attrs['title'] === null && this.random.chance(0.3)) return [s.text(href, link.addToSet(marks))];
      return this.inline({ ...options, breaks: false }, link.addToSet(marks), depth + 1);
    }
    if (roll < 0.5) {
      const code = Array.from({ length: this.random.int(1, 3) }, () => this.random.pick([...WORDS, '`', 'a``b', '|x|'])).join(' ');
      return [s.text(code, s.mark('code').addToSet(marks))];
    }
    if (options.images && roll < 0.58) {
      const alt = this.optionalText();
      return [s.nodes.image.create({ src: this.random.pick(SRCS), alt, title: this.optionalText() }, null, marks)];
    }
    return [s.text(this.words(1, 3), marks)];
  }

  block(depth: number): Node {
    const containers = depth < 3;
    const choices = ['paragraph', 'paragraph', 'paragraph', 'heading', 'code_block', 'horizontal_rule', 'table'];
    if (containers) choices.push('blockquote', 'bullet_list', 'ordered_list', 'callout', 'steps', 'cards');
    switch (this.random.pick(choices)) {
      case 'heading':
        return s.nodes.heading.create({ level: this.random.int(1, 4) }, this.inline({ breaks: false, images: true }));
      case 'code_block': {
        const lines = Array.from({ length: this.random.int(0, 5) }, () => this.random.pick(CODE_LINES));
        const code = lines.join('\n') + (lines.length && this.random.chance(0.2) ? '\n' : '');
        return s.nodes.code_block.create({ language: this.random.pick(LANGUAGES) }, code ? s.text(code) : null);
      }
      case 'horizontal_rule':
        return s.nodes.horizontal_rule.create();
      case 'table':
        return this.table();
      case 'blockquote':
        return s.nodes.blockquote.create(null, this.blocks(depth + 1, 1, 3));
      case 'bullet_list':
      case 'ordered_list':
        return this.list(depth);
      case 'callout':
        return s.nodes.callout.create({ variant: this.random.pick(VARIANTS) }, this.blocks(depth + 1, 1, 3));
      case 'steps':
        return s.nodes.steps.create(
          null,
          Array.from({ length: this.random.int(1, 3) }, () =>
            s.nodes.step.create({ title: this.random.chance(0.9) ? this.words(1, 4) : '' }, this.blocks(depth + 1, 1, 2)),
          ),
        );
      case 'cards':
        return s.nodes.cards.create(
          null,
          Array.from({ length: this.random.int(1, 3) }, () =>
            s.nodes.card.create(
              { title: this.words(1, 3), href: this.random.chance(0.6) ? this.random.pick(HREFS) : null },
              this.blocks(depth + 1, 0, 2),
            ),
          ),
        );
      default:
        return s.nodes.paragraph.create(null, this.inline({ breaks: true, images: true }));
    }
  }

  blocks(depth: number, min: number, max: number): Node[] {
    return Array.from({ length: this.random.int(min, max) }, () => this.block(depth));
  }

  table(): Node {
    const columns = this.random.int(1, 4);
    const aligns = Array.from({ length: columns }, () => this.random.pick(ALIGNS));
    const row = (type: 'table_header' | 'table_cell'): Node =>
      s.nodes.table_row.create(
        null,
        aligns.map((align) => s.nodes[type].create({ align }, this.random.chance(0.15) ? null : this.inline({ breaks: false, images: true }))),
      );
    return s.nodes.table.create(null, [row('table_header'), ...Array.from({ length: this.random.int(0, 3) }, () => row('table_cell'))]);
  }

  /** Tight lists hold items of one paragraph (plus a nested list); loose lists may hold anything. */
  list(depth: number, interrupting = false): Node {
    const tight = this.random.chance(0.5);
    const items = Array.from({ length: this.random.int(1, 3) }, () => {
      if (tight) {
        const paragraph = s.nodes.paragraph.create(null, this.inline({ breaks: true, images: true }));
        // Only a list starting at 1 may follow a paragraph line directly (CommonMark interruption rule).
        return s.nodes.list_item.create(null, depth < 2 && this.random.chance(0.3) ? [paragraph, this.list(depth + 1, true)] : [paragraph]);
      }
      return s.nodes.list_item.create(null, this.blocks(depth + 1, 1, 3));
    });
    // A loose list needs a blank line Markdown can show: two items, or two blocks in an item.
    const showsLoose = items.length > 1 || items.some((item) => item.childCount > 1);
    const hasParagraph = items.some((item) => item.firstChild!.type.name === 'paragraph') || items.some((item) => item.content.content.some((c) => c.type.name === 'paragraph'));
    const attrs = { tight: tight || (!showsLoose && hasParagraph) };
    if (this.random.chance(0.5)) return s.nodes.bullet_list.create(attrs, items);
    return s.nodes.ordered_list.create({ ...attrs, order: interrupting ? 1 : this.random.pick([1, 1, 0, 3, 10, 99]) }, items);
  }

  doc(): Node {
    return s.nodes.doc.create(null, this.blocks(0, 3, 9));
  }
}

function coverage(node: Node, into: Set<string>): void {
  node.descendants((child) => {
    into.add(child.type.name);
    for (const mark of child.marks) into.add(`mark:${mark.type.name}`);
  });
}

function stable(doc: Node): { first: Node; markdown: string } {
  const first = parseMarkdown(toMarkdown(doc));
  const markdown = toMarkdown(first);
  const second = parseMarkdown(markdown);
  expect(second.eq(first)).toBe(true);
  expect(toMarkdown(second)).toBe(markdown);
  return { first, markdown };
}

function jsonRoundTrip(doc: Node): void {
  const json: unknown = JSON.parse(JSON.stringify(doc.toJSON()));
  const back = fromJson(json);
  expect(back.eq(doc)).toBe(true);
  expect(back.toJSON()).toEqual(json);
}

describe('generated corpus', () => {
  const random = new Random(20_261_122);
  const docs = Array.from({ length: 60 }, () => new Generator(random).doc());
  const deepRandom = new Random(104_729);
  const deepMarks = Array.from({ length: 60 }, () => new Generator(deepRandom, 3).doc());

  it('covers every node type and mark of the schema', () => {
    const seen = new Set<string>();
    docs.forEach((doc) => coverage(doc, seen));
    const expected = [...Object.keys(s.nodes).filter((name) => name !== 'doc'), ...Object.keys(s.marks).map((name) => `mark:${name}`)];
    expect(expected.filter((name) => !seen.has(name))).toEqual([]);
  });

  it.each(docs.map((doc, i) => [i, doc] as const))('document %i: Markdown -> doc -> Markdown -> doc is stable and lossless', (_i, doc) => {
    doc.check();
    const { first, markdown } = stable(doc);
    expect(first.toJSON()).toEqual(doc.toJSON());
    expect(markdown).toBe(toMarkdown(doc));
  });

  it.each(docs.map((doc, i) => [i, doc] as const))('document %i: JSON -> doc -> JSON is lossless', (_i, doc) => {
    jsonRoundTrip(doc);
  });

  it.each(deepMarks.map((doc, i) => [i, doc] as const))('document %i with marks nested three deep: stable through Markdown, lossless through JSON', (_i, doc) => {
    stable(doc);
    jsonRoundTrip(doc);
  });

  it('renders every document to HTML without raw markup from the text', () => {
    for (const doc of [...docs, ...deepMarks]) {
      const html = toHtml(doc);
      expect(html).not.toMatch(/<(script|tag|iframe)\b/);
      expect(html).not.toContain('javascript:');
    }
  });
});
