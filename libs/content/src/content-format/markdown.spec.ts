import { describe, expect, it } from '@jest/globals';
import type { Node } from 'prosemirror-model';
import { findUnstorableText } from '#core/domain';
import { contentSchema, parseMarkdown, toMarkdown } from './index.js';

const s = contentSchema;
const n = (type: string, attrs: Record<string, unknown> | null, ...content: Node[]): Node => s.node(type, attrs, content);
const p = (...content: Node[]): Node => n('paragraph', null, ...content);
const t = (text: string, ...marks: Array<string | [string, Record<string, unknown>]>): Node =>
  s.text(text, marks.map((m) => (typeof m === 'string' ? s.mark(m) : s.mark(m[0], m[1]))));
const doc = (...content: Node[]): Node => n('doc', null, ...content);

function nodeTypes(node: Node): Set<string> {
  const types = new Set<string>();
  node.descendants((child) => {
    types.add(child.type.name);
    child.marks.forEach((mark) => types.add(`mark:${mark.type.name}`));
  });
  return types;
}

/** Markdown in its canonical form: parsing then serializing gives the same text back. */
const canonical: Array<[string, string, string]> = [
  ['paragraph', 'paragraph', 'Hello, world.\n\nSecond paragraph.'],
  ['heading', 'heading', '# One\n\n## Two\n\n### Three\n\n#### Four'],
  ['blockquote', 'blockquote', '> Quoted\n>\n> Two paragraphs'],
  ['bullet_list (tight)', 'bullet_list', '* one\n* two\n  * nested'],
  ['bullet_list (loose)', 'bullet_list', '* one\n\n* two'],
  ['ordered_list', 'ordered_list', '3. three\n4. four'],
  ['list_item', 'list_item', '1. item\n\n   continued'],
  ['code_block', 'code_block', '```ts\nconst a = 1;\n\nconsole.log(a);\n```'],
  ['code_block without language', 'code_block', '```\nplain\n```'],
  ['code_block holding a fence', 'code_block', '````md\n```js\nx\n```\n````'],
  ['horizontal_rule', 'horizontal_rule', 'Above\n\n---\n\nBelow'],
  ['image', 'image', '![A cat](/img/cat.png "The cat") and ![](https://cdn.example.com/x.png)'],
  ['hard_break', 'hard_break', 'Line one\\\nLine two'],
  ['table', 'table', '| Name | Price |\n| :--- | ---: |\n| Basic | $5 |\n| Pro | `a\\|b` and c\\|d |'],
  ['table_header', 'table_header', '| h |\n| --- |'],
  ['table_cell', 'table_cell', '| h | i |\n| --- | :---: |\n| **b** |  |'],
  ['callout', 'callout', ':::callout{variant="warning"}\nBe careful.\n:::'],
  ['steps', 'steps', '::::steps\n:::step{title="Open settings"}\nClick **Settings**.\n:::\n\n:::step{title="Save"}\nDone.\n:::\n::::'],
  ['step', 'step', '::::steps\n:::step{title=""}\nUntitled.\n:::\n::::'],
  ['cards', 'cards', '::::cards\n:::card{title="Billing" href="/billing"}\nPlans and invoices.\n:::\n\n:::card{title="No link"}\n:::\n::::'],
  ['card', 'card', '::::cards\n:::card{title="Say \\"hi\\" \\\\ bye" href="https://example.com/?a=1&b=2"}\nText.\n:::\n::::'],
  ['strong', 'mark:strong', 'Some **bold** text'],
  ['em', 'mark:em', 'Some *italic* text'],
  ['code', 'mark:code', 'Run `npm test` or ``a`b``'],
  ['link', 'mark:link', 'See [the docs](https://example.com/docs "Docs") or [home](/)'],
  ['autolink', 'mark:link', 'Visit <https://example.com/a?b=c>'],
  ['strike', 'mark:strike', 'Now ~~free~~ cheap'],
  ['nested marks', 'mark:em', '***both** then em* and [**bold link**](/x)'],
];

describe('Markdown round trip per node and mark', () => {
  it.each(canonical)('%s', (_name, type, markdown) => {
    const parsed = parseMarkdown(markdown);
    expect(nodeTypes(parsed).has(type)).toBe(true);
    expect(toMarkdown(parsed)).toBe(markdown);
    parsed.check();
  });

  it('reads every heading level, and h5/h6 as the deepest level the schema has', () => {
    const levels = parseMarkdown('# a\n\n## b\n\n### c\n\n#### d\n\n##### e\n\n###### f').content.content.map((h) => h.attrs['level']);
    expect(levels).toEqual([1, 2, 3, 4, 4, 4]);
  });

  it('keeps attributes: list order and tightness, code language, image alt/title, link title, cell alignment', () => {
    const parsed = parseMarkdown('0. zero\n1. one\n\n```python\nx\n```\n\n![alt *text*](/a.png "T")\n\n[x](/y "Y")\n\n| a | b | c |\n| :-: | :-- | --- |');
    expect(parsed.child(0).attrs).toEqual({ order: 0, tight: true });
    expect(parsed.child(1).attrs).toEqual({ language: 'python' });
    expect(parsed.child(2).firstChild!.attrs).toEqual({ src: '/a.png', alt: 'alt text', title: 'T' });
    expect(parsed.child(3).firstChild!.marks[0].attrs).toEqual({ href: '/y', title: 'Y' });
    expect(parsed.child(4).firstChild!.content.content.map((c) => c.attrs['align'])).toEqual(['center', 'left', null]);
  });

  it('serializes built documents and reads them back equal', () => {
    const built = doc(
      n('heading', { level: 2 }, t('Title '), t('with code', 'code')),
      p(t('a '), t('link', ['link', { href: 'https://e.com/a_(b)', title: 'say "x"' }]), t(' and '), t('bold', 'strong', 'em')),
      n('bullet_list', { tight: true }, n('list_item', null, p(t('x'))), n('list_item', null, p(t('y')))),
      n('bullet_list', { tight: true }, n('list_item', null, p(t('separate list')))),
      n('ordered_list', { order: 7, tight: true }, n('list_item', null, p(t('seven'))), n('list_item', null, p(t('eight')))),
      n('ordered_list', { order: 1, tight: true }, n('list_item', null, p(t('next list')))),
      n('code_block', { language: 'sh' }, t('echo "```"\n::::\n')),
      n('bullet_list', { tight: false }, n('list_item', null, n('horizontal_rule', null), p(t('after rule')))),
      n('table', null,
        n('table_row', null, n('table_header', null, t('a|b')), n('table_header', null)),
        n('table_row', null, n('table_cell', null, t('pipe | inside', 'code')), n('table_cell', null, n('image', { src: '/i.png', alt: 'i' })))),
      p(t('tricky: '), t('[x] *y* _z_ \\ # | < & ` ~')),
      p(t('- not a list'), n('hard_break', null), t('# not a heading'), n('hard_break', null), t('2. not a list'), n('hard_break', null), t(':::callout')),
      n('heading', { level: 3 }, t('ends with #')),
    );
    const markdown = toMarkdown(built);
    expect(parseMarkdown(markdown).toJSON()).toEqual(built.toJSON());
  });

  it('writes an empty document as an empty string', () => {
    expect(toMarkdown(parseMarkdown(''))).toBe('');
    expect(parseMarkdown('').eq(doc(p()))).toBe(true);
  });
});

describe('container directives', () => {
  it('nests three levels with fences growing by one colon per level', () => {
    const markdown = [
      ':::::steps',
      '::::step{title="Connect"}',
      ':::callout{variant="danger"}',
      'Deep **inside**.',
      ':::',
      '::::',
      '',
      '::::step{title="Second"}',
      'Plain.',
      '::::',
      ':::::',
      '',
      ':::::callout{variant="success"}',
      '::::cards',
      ':::card{title="A" href="/a"}',
      '* item',
      ':::',
      '::::',
      ':::::',
    ].join('\n');
    const parsed = parseMarkdown(markdown);
    expect(parsed.child(0).type.name).toBe('steps');
    expect(parsed.child(0).child(0).attrs).toEqual({ title: 'Connect' });
    expect(parsed.child(0).child(0).child(0).type.name).toBe('callout');
    expect(parsed.child(0).child(0).child(0).attrs).toEqual({ variant: 'danger' });
    expect(parsed.child(1).child(0).child(0).child(0).type.name).toBe('bullet_list');
    expect(toMarkdown(parsed)).toBe(markdown);
  });

  it('computes fence lengths from nesting when serializing a built document', () => {
    const built = doc(
      n('callout', { variant: 'info' },
        n('callout', { variant: 'warning' }, n('callout', { variant: 'danger' }, p(t('three deep')))),
        p(t('back at one'))),
    );
    expect(toMarkdown(built)).toBe(
      ':::::callout{variant="info"}\n::::callout{variant="warning"}\n:::callout{variant="danger"}\nthree deep\n:::\n::::\n\nback at one\n:::::',
    );
    expect(parseMarkdown(toMarkdown(built)).eq(built)).toBe(true);
  });

  it('lengthens a fence past colon-only lines of code inside it', () => {
    const built = doc(n('callout', { variant: 'info' }, n('code_block', null, t(':::\n::::\nend'))), p(t('after')));
    const markdown = toMarkdown(built);
    expect(markdown.startsWith(':::::callout')).toBe(true);
    expect(parseMarkdown(markdown).eq(built)).toBe(true);
  });

  it('keeps a directive head with a pipe from reading as a table header', () => {
    const dashes = n('table', null, n('table_row', null, n('table_header', null, t('-')), n('table_header', null, t('-'))));
    const built = doc(n('cards', null, n('card', { title: 'a|b', href: null }, dashes)));
    expect(parseMarkdown(toMarkdown(built)).eq(built)).toBe(true);
  });

  it('works inside lists and block quotes', () => {
    const markdown = '* :::callout{variant="info"}\n  in a list\n  :::\n\n> :::callout{variant="danger"}\n> quoted\n> :::';
    const parsed = parseMarkdown(markdown);
    expect(parsed.child(0).child(0).child(0).type.name).toBe('callout');
    expect(parsed.child(1).child(0).type.name).toBe('callout');
    expect(toMarkdown(parsed)).toBe(markdown);
  });

  it('falls back to the info variant for an unknown one (the author asked for a callout)', () => {
    const parsed = parseMarkdown(':::callout{variant="pink"}\nStill a callout.\n:::');
    expect(parsed.child(0).type.name).toBe('callout');
    expect(parsed.child(0).attrs).toEqual({ variant: 'info' });
  });

  it('ignores unknown attributes and accepts a head without attributes', () => {
    expect(parseMarkdown(':::callout{variant="success" id="x"}\nok\n:::').child(0).attrs).toEqual({ variant: 'success' });
    expect(parseMarkdown('::: callout\nok\n:::').child(0).attrs).toEqual({ variant: 'info' });
  });

  const malformed: Array<[string, string]> = [
    ['unknown name', ':::foo\ntext\n:::'],
    ['unclosed brace', ':::callout{variant="warning"\ntext\n:::'],
    ['unquoted value', ':::callout{variant=warning}\ntext\n:::'],
    ['unterminated quote', ':::callout{variant="warning\\"}\ntext\n:::'],
    ['trailing words', ':::callout warning\ntext\n:::'],
    ['two colons', '::callout\ntext\n::'],
    ['step outside steps', ':::step{title="Lost"}\ntext\n:::'],
    ['card outside cards', ':::card{title="Lost"}\ntext\n:::'],
    ['steps holding a paragraph', '::::steps\nloose text\n::::'],
    ['steps holding a step and a paragraph', '::::steps\n:::step{title="a"}\nx\n:::\nloose\n::::'],
    ['cards holding a callout', '::::cards\n:::callout\nx\n:::\n::::'],
    ['empty cards', '::::cards\n::::'],
    ['step directly in a callout', '::::callout\n:::step{title="x"}\ny\n:::\n::::'],
    ['stray closing fence', 'text\n\n:::\n\nmore'],
  ];

  it.each(malformed)('%s stays text', (_name, markdown) => {
    const parsed = parseMarkdown(markdown);
    const directiveTypes = [...nodeTypes(parsed)].filter((type) => ['steps', 'step', 'cards', 'card'].includes(type));
    expect(directiveTypes).toEqual([]);
    const head = markdown.split('\n')[0];
    if (!/callout/.test(markdown) || /step|card/.test(head)) expect(parsed.textContent).toContain(head.replace(/\\"/g, '"').slice(0, 8));
    // Escaped on the way out, so it stays text.
    const again = parseMarkdown(toMarkdown(parsed));
    expect(again.eq(parsed)).toBe(true);
  });

  it('keeps the content of a misplaced directive', () => {
    const parsed = parseMarkdown(':::step{title="Lost"}\nkept **content**\n:::');
    expect(parsed.content.content.map((c) => c.textContent)).toEqual([':::step{title="Lost"}', 'kept content', ':::']);
  });

  it('closes an unclosed directive at the end of the document', () => {
    const parsed = parseMarkdown(':::callout{variant="warning"}\nnever closed');
    expect(parsed.child(0).type.name).toBe('callout');
    expect(toMarkdown(parsed)).toBe(':::callout{variant="warning"}\nnever closed\n:::');
  });
});

describe('parseMarkdown robustness', () => {
  it('treats raw HTML as text', () => {
    const parsed = parseMarkdown('<div onclick="x()">hi</div>\n\ninline <b>bold</b> <!-- c -->');
    expect(parsed.child(0).textContent).toBe('<div onclick="x()">hi</div>');
    expect(parsed.child(1).textContent).toBe('inline <b>bold</b> <!-- c -->');
    expect(parseMarkdown(toMarkdown(parsed)).eq(parsed)).toBe(true);
  });

  it('keeps an image without a source, and a fence with an overlong language, without failing the document', () => {
    const parsed = parseMarkdown('# Title\n\n![alt *x*]() and ![](<>)\n\n```' + 'x'.repeat(101) + '\ncode\n```');
    expect(parsed.child(0).type.name).toBe('heading');
    expect(parsed.child(1).textContent).toBe('![alt x]() and ![]()');
    expect(parsed.child(2).attrs).toEqual({ language: null });
    expect(parseMarkdown(toMarkdown(parsed)).eq(parsed)).toBe(true);
  });

  it('does not linkify bare URLs and refuses script links', () => {
    expect(nodeTypes(parseMarkdown('see https://example.com')).has('mark:link')).toBe(false);
    expect(nodeTypes(parseMarkdown('[x](javascript:alert(1))')).has('mark:link')).toBe(false);
  });

  it('reads NUL and unpaired surrogates as U+FFFD (as CommonMark reads NUL), so the document can always be stored', () => {
    const parsed = parseMarkdown('a\u0000b \ud800 🔑 [x\udc00](https://example.com/\ud83d "t\u0000") ![\ud800](/i.png)\n\n```\ud800\ncode\u0000\n```');
    expect(findUnstorableText(parsed.toJSON())).toEqual([]);
    expect(parsed.child(0).textContent).toBe('a\ufffdb \ufffd 🔑 x\ufffd ');
    expect(parsed.child(1).textContent).toBe('code\ufffd');
    expect(parseMarkdown(toMarkdown(parsed)).eq(parsed)).toBe(true);
  });

  it('never throws, and always returns a valid document', () => {
    const nasty = [
      '>'.repeat(5000) + ' deep',
      '* '.repeat(3000) + 'deep list',
      ':::callout\n'.repeat(300),
      '::::steps\n'.repeat(200) + ':::step\n'.repeat(200),
      '['.repeat(10000) + ']('.repeat(5000),
      '*'.repeat(10000),
      '|'.repeat(1000) + '\n' + '|-'.repeat(500),
      '```\n' + '`'.repeat(1000),
      '\u0000\uFFFF\uD800 lone surrogate \r\n\r\n# \u202Eevil',
      ':::card{title="a" href="b"}\n:::\n::::\n:::::',
      '# ' + '#'.repeat(100),
      '1. '.repeat(1000),
      '![](' + 'a'.repeat(100000) + ')',
      '\\',
      '',
      '   ',
    ];
    let seed = 42;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const alphabet = ['*', '_', '`', '~', '[', ']', '(', ')', '!', '#', '>', '-', '+', '1.', '|', ':', ':::', '::::', '\\', '\n', '\n\n', ' ', '  ', 'a', 'word', '{', '}', '"', '<', '&amp;', 'callout', 'step', 'card', 'steps{', 'title="x"', 'http://x.y', '\t'];
    for (let i = 0; i < 400; i++) {
      let input = '';
      const length = 1 + Math.floor(random() * 60);
      for (let k = 0; k < length; k++) input += alphabet[Math.floor(random() * alphabet.length)];
      nasty.push(input);
    }
    for (const input of nasty) {
      const parsed = parseMarkdown(input);
      expect(parsed.type.name).toBe('doc');
      parsed.check();
      expect(findUnstorableText(parsed.toJSON())).toEqual([]);
      // Whatever the first reading made of it, writing and reading again changes nothing.
      expect(parseMarkdown(toMarkdown(parsed)).eq(parsed)).toBe(true);
    }
  });
});
