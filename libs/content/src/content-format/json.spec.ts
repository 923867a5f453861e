import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '#core/domain';
import { fromJson, MAX_CONTENT_DEPTH } from './index.js';

type Json = Record<string, unknown>;
const text = (value: string, marks?: Json[]): Json => (marks ? { type: 'text', marks, text: value } : { type: 'text', text: value });
const para = (...content: Json[]): Json => (content.length ? { type: 'paragraph', content } : { type: 'paragraph' });
const doc = (...content: Json[]): Json => ({ type: 'doc', content });

/** One canonical JSON document per node and mark: every attribute spelled out, as toJSON writes it. */
const perType: Array<[string, Json]> = [
  ['paragraph', doc(para(text('Hello')), para())],
  ['heading', doc({ type: 'heading', attrs: { level: 1 }, content: [text('H1')] }, { type: 'heading', attrs: { level: 4 }, content: [text('H4')] })],
  ['blockquote', doc({ type: 'blockquote', content: [para(text('q'))] })],
  ['bullet_list', doc({ type: 'bullet_list', attrs: { tight: true }, content: [{ type: 'list_item', content: [para(text('a'))] }] })],
  ['ordered_list', doc({ type: 'ordered_list', attrs: { order: 0, tight: false }, content: [{ type: 'list_item', content: [para(text('a')), para(text('b'))] }] })],
  ['code_block', doc({ type: 'code_block', attrs: { language: 'ts' }, content: [text('let a = 1;\n')] }, { type: 'code_block', attrs: { language: null } })],
  ['horizontal_rule', doc({ type: 'horizontal_rule' })],
  ['image', doc(para({ type: 'image', attrs: { src: '/a.png', alt: 'A', title: null } }, { type: 'image', attrs: { src: 'x', alt: null, title: 'T' } }))],
  ['hard_break', doc(para(text('a'), { type: 'hard_break' }, text('b')))],
  [
    'table',
    doc({
      type: 'table',
      content: [
        { type: 'table_row', content: [{ type: 'table_header', attrs: { align: 'center' }, content: [text('h')] }] },
        { type: 'table_row', content: [{ type: 'table_cell', attrs: { align: null } }] },
      ],
    }),
  ],
  ['callout', doc({ type: 'callout', attrs: { variant: 'danger' }, content: [para(text('!'))] })],
  ['steps', doc({ type: 'steps', content: [{ type: 'step', attrs: { title: 'One' }, content: [para(text('1'))] }] })],
  ['cards', doc({ type: 'cards', content: [{ type: 'card', attrs: { title: 'A', href: '/a' } }, { type: 'card', attrs: { title: '', href: null }, content: [para()] }] })],
  ['strong', doc(para(text('b', [{ type: 'strong' }])))],
  ['em', doc(para(text('i', [{ type: 'em' }])))],
  ['code', doc(para(text('c', [{ type: 'code' }])))],
  ['strike', doc(para(text('s', [{ type: 'strike' }])))],
  ['link', doc(para(text('l', [{ type: 'link', attrs: { href: 'https://e.com', title: 'T' } }, { type: 'em' }, { type: 'strong' }])))],
  ['unicode', doc(para(text('Grüße 👋🏽 — 日本語 \u200b e\u0301')))],
];

function reasonOf(json: unknown): string {
  try {
    fromJson(json);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const validation = error as ValidationError;
    expect(validation.message.startsWith('content is not a valid document: ')).toBe(true);
    expect(validation.details).toEqual([{ field: 'content', message: validation.message }]);
    return validation.message;
  }
  throw new Error('expected fromJson to reject the input');
}

const heading = (attrs: unknown): Json => doc({ type: 'heading', attrs, content: [text('h')] });

describe('fromJson', () => {
  it.each(perType)('%s: JSON to document to JSON is lossless', (_name, json) => {
    const node = fromJson(json);
    expect(node.toJSON()).toEqual(json);
    expect(fromJson(JSON.parse(JSON.stringify(node.toJSON()))).eq(node)).toBe(true);
  });

  it('fills in defaults for omitted attributes', () => {
    const node = fromJson(doc({ type: 'callout', content: [para()] }, { type: 'code_block' }));
    expect(node.child(0).attrs).toEqual({ variant: 'info' });
    expect(node.child(1).attrs).toEqual({ language: null });
  });

  const rejected: Array<[string, unknown, string]> = [
    ['null', null, 'expected a JSON object'],
    ['an array', [], 'expected a JSON object'],
    ['a string', '{"type":"doc"}', 'expected a JSON object'],
    ['a paragraph at the top', para(text('x')), 'the top node must be a doc, got paragraph'],
    ['an unknown node type', doc({ type: 'foo' }), 'Unknown node type: foo'],
    ['an unknown mark type', doc(para(text('x', [{ type: 'underline' }]))), 'Unknown mark type: underline'],
    ['heading level 7', heading({ level: 7 }), 'heading level must be an integer from 1 to 4, got 7'],
    ['heading level 0', heading({ level: 0 }), 'heading level'],
    ['heading level "2"', heading({ level: '2' }), 'got "2"'],
    ['heading level 2.5', heading({ level: 2.5 }), 'heading level'],
    ['callout variant "pink"', doc({ type: 'callout', attrs: { variant: 'pink' }, content: [para()] }), 'callout variant must be one of info, warning, danger, success, got "pink"'],
    ['ordered_list order -1', doc({ type: 'ordered_list', attrs: { order: -1 }, content: [{ type: 'list_item', content: [para()] }] }), 'ordered_list order'],
    ['list tight "yes"', doc({ type: 'bullet_list', attrs: { tight: 'yes' }, content: [{ type: 'list_item', content: [para()] }] }), 'list tight must be a boolean'],
    ['code language with a space', doc({ type: 'code_block', attrs: { language: 'java script' } }), 'code_block language'],
    ['code language empty', doc({ type: 'code_block', attrs: { language: '' } }), 'code_block language'],
    ['code language with a pipe', doc({ type: 'code_block', attrs: { language: 'a|b' } }), 'code_block language'],
    ['code language with a backtick', doc({ type: 'code_block', attrs: { language: 'a`b' } }), 'code_block language'],
    ['image without src', doc(para({ type: 'image' })), 'image src must be a non-empty string, got null'],
    ['image with an empty src', doc(para({ type: 'image', attrs: { src: '' } })), 'image src must be a non-empty string, got ""'],
    ['image src number', doc(para({ type: 'image', attrs: { src: 5 } })), 'image src must be a non-empty string'],
    ['image alt number', doc(para({ type: 'image', attrs: { src: 'a', alt: 3 } })), 'image alt must be a string or null'],
    ['link without href', doc(para(text('x', [{ type: 'link', attrs: {} }]))), 'No value supplied for attribute href'],
    ['link href null', doc(para(text('x', [{ type: 'link', attrs: { href: null } }]))), 'link href must be a string'],
    ['card href number', doc({ type: 'cards', content: [{ type: 'card', attrs: { href: 1 } }] }), 'card href must be a string or null'],
    ['step title null', doc({ type: 'steps', content: [{ type: 'step', attrs: { title: null }, content: [para()] }] }), 'step title must be a string'],
    ['cell align "justify"', doc({ type: 'table', content: [{ type: 'table_row', content: [{ type: 'table_cell', attrs: { align: 'justify' } }] }] }), 'table cell align'],
    ['an unknown attribute', heading({ level: 1, id: 'x' }), 'Unsupported attribute id for node heading'],
    ['an unknown mark attribute', doc(para(text('x', [{ type: 'strong', attrs: { weight: 700 } }]))), 'Unsupported attribute weight for mark strong'],
    ['an inherited-looking attribute', JSON.parse('{"type":"doc","content":[{"type":"paragraph","attrs":{"__proto__":{"x":1}}}]}'), 'Unsupported attribute __proto__'],
    ['an unknown key', doc({ type: 'paragraph', style: 'x' }), 'unexpected key style at content.content[0]'],
    ['an empty doc', doc(), 'Invalid content for node doc'],
    ['a doc without content', { type: 'doc' }, 'Invalid content for node doc'],
    ['a paragraph in a paragraph', doc({ type: 'paragraph', content: [para()] }), 'Invalid content for node paragraph'],
    ['a paragraph directly in steps', doc({ type: 'steps', content: [para()] }), 'Invalid content for node steps'],
    ['a step outside steps', doc({ type: 'step', content: [para()] }), 'Invalid content for node doc'],
    ['a hard break in a heading', doc({ type: 'heading', content: [text('a'), { type: 'hard_break' }, text('b')] }), 'Invalid content for node heading'],
    ['a hard break in a table cell', doc({ type: 'table', content: [{ type: 'table_row', content: [{ type: 'table_cell', content: [{ type: 'hard_break' }] }] }] }), 'Invalid content for node table_cell'],
    ['a mark in a code block', doc({ type: 'code_block', content: [text('x', [{ type: 'strong' }])] }), 'Invalid content for node code_block'],
    ['an empty text node', doc(para(text(''))), 'text node needs a non-empty text'],
    ['a text node without text', doc(para({ type: 'text' })), 'text node needs a non-empty text'],
    ['text on a paragraph', doc({ type: 'paragraph', text: 'x' }), 'only text nodes have text'],
    ['content that is not an array', doc({ type: 'paragraph', content: 'x' }), 'content must be an array'],
    ['marks that are not an array', doc(para({ type: 'text', text: 'x', marks: { type: 'em' } })), 'marks must be an array'],
    ['attrs that are not an object', doc({ type: 'heading', attrs: [1], content: [] }), 'attrs of node heading must be an object'],
    ['a duplicated mark', doc(para(text('x', [{ type: 'em' }, { type: 'em' }]))), 'Invalid collection of marks'],
    ['a non-object child', { type: 'doc', content: [para(), 'text'] }, 'expected a node object at content.content[1]'],
    // Text PostgreSQL cannot store (jsonb refuses NUL and the escape of an unpaired surrogate).
    ['NUL in a text node', doc(para(text('a'), text('b\u0000', [{ type: 'em' }]))), 'text must not contain the NUL character (U+0000) at content.content[0].content[1]'],
    ['a lone high surrogate in a text node', doc(para(text('key \ud83d'))), 'text must be valid Unicode text: it contains an unpaired surrogate (U+D83D) at content.content[0].content[0]'],
    ['a lone low surrogate in a text node', doc(para(text('\ude00'))), 'unpaired surrogate (U+DE00)'],
    ['NUL in a link href', doc(para(text('x', [{ type: 'link', attrs: { href: '\u0000javascript:x' } }]))), 'attribute href of mark link must not contain the NUL character (U+0000) at content.content[0].content[0].marks[0]'],
    ['a lone surrogate in an image alt', doc(para({ type: 'image', attrs: { src: '/a.png', alt: '\ud800' } })), 'attribute alt of node image must be valid Unicode text'],
    ['NUL in a step title', doc({ type: 'steps', content: [{ type: 'step', attrs: { title: 'a\u0000' }, content: [para()] }] }), 'attribute title of node step must not contain the NUL character'],
  ];

  it.each(rejected)('rejects %s with the reason', (_name, json, reason) => {
    expect(reasonOf(json)).toContain(reason);
  });

  it('keeps valid Unicode as it is: surrogate pairs, U+FFFD, other control characters', () => {
    const json = doc(para(text('🔑 \ud83d\ude00 \ufffd \u0001 \u202e', [{ type: 'link', attrs: { href: 'https://example.com/🔑', title: null } }])));
    expect(fromJson(json).toJSON()).toEqual(json);
  });

  it('accepts marks in any order and stores them in schema order (a mark set has no order)', () => {
    const node = fromJson(doc(para(text('x', [{ type: 'strong' }, { type: 'em' }]))));
    expect(node.firstChild!.firstChild!.marks.map((m) => m.type.name)).toEqual(['em', 'strong']);
  });

  it('rejects content nested too deep', () => {
    let node: Json = para(text('deep'));
    for (let i = 0; i < MAX_CONTENT_DEPTH; i++) node = { type: 'blockquote', content: [node] };
    expect(reasonOf(doc(node))).toContain(`content nests deeper than ${MAX_CONTENT_DEPTH} levels`);
    let ok: Json = para(text('deep'));
    for (let i = 0; i < MAX_CONTENT_DEPTH - 3; i++) ok = { type: 'blockquote', content: [ok] };
    expect(() => fromJson(doc(ok))).not.toThrow();
  });
});
