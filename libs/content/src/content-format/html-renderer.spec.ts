import { describe, expect, it } from '@jest/globals';
import { type DOMOutputSpec, Node, Schema } from 'prosemirror-model';
import { contentSchema, fromJson, parseMarkdown, toHtml } from './index.js';

type Json = Record<string, unknown>;
const text = (value: string, marks?: Json[]): Json => (marks ? { type: 'text', marks, text: value } : { type: 'text', text: value });
const para = (...content: Json[]): Json => ({ type: 'paragraph', content });
const doc = (...content: Json[]): Node => fromJson({ type: 'doc', content });
/** A document built without fromJson's checks (which refuse text that cannot be stored, such as NUL), to test the renderer's own defences. */
const unchecked = (...content: Json[]): Node => Node.fromJSON(contentSchema, { type: 'doc', content });
const link = (href: string, title: string | null = null): Json => ({ type: 'link', attrs: { href, title } });
const image = (src: string, alt: string | null = null, title: string | null = null): Json => ({ type: 'image', attrs: { src, alt, title } });

describe('toHtml: one node or mark at a time', () => {
  const cases: Array<[string, Node, string]> = [
    ['paragraph', doc(para(text('Hi & <bye>'))), '<p>Hi &amp; &lt;bye&gt;</p>'],
    ['empty paragraph', parseMarkdown(''), '<p></p>'],
    ['heading', parseMarkdown('## Two\n\n#### Four'), '<h2>Two</h2><h4>Four</h4>'],
    ['blockquote', parseMarkdown('> q'), '<blockquote><p>q</p></blockquote>'],
    ['bullet_list', parseMarkdown('* a\n* b'), '<ul><li><p>a</p></li><li><p>b</p></li></ul>'],
    ['ordered_list', parseMarkdown('1. a'), '<ol><li><p>a</p></li></ol>'],
    ['ordered_list with a start', parseMarkdown('3. c'), '<ol start="3"><li><p>c</p></li></ol>'],
    ['code_block', parseMarkdown('```js\nif (a < b && c) {}\n```'), '<pre><code class="language-js">if (a &lt; b &amp;&amp; c) {}</code></pre>'],
    ['code_block without language', parseMarkdown('```\nx\n```'), '<pre><code>x</code></pre>'],
    ['horizontal_rule', parseMarkdown('---'), '<hr>'],
    ['image', parseMarkdown('![A "cat"](/cat.png \'T\')'), '<p><img src="/cat.png" alt="A &quot;cat&quot;" title="T"></p>'],
    ['image without alt', parseMarkdown('![](https://e.com/x.png)'), '<p><img src="https://e.com/x.png"></p>'],
    ['hard_break', parseMarkdown('a\\\nb'), '<p>a<br>b</p>'],
    [
      'table',
      parseMarkdown('| a | b |\n| :-: | --- |\n| 1 | 2 |'),
      '<table><tbody><tr><th style="text-align: center">a</th><th>b</th></tr><tr><td style="text-align: center">1</td><td>2</td></tr></tbody></table>',
    ],
    ['callout', parseMarkdown(':::callout{variant="warning"}\nCareful\n:::'), '<div class="callout callout-warning"><p>Careful</p></div>'],
    [
      'steps',
      parseMarkdown('::::steps\n:::step{title="One <1>"}\nDo\n:::\n:::step{title=""}\nUntitled\n:::\n::::'),
      '<ol class="steps"><li class="step"><h3 class="step-title">One &lt;1&gt;</h3><div class="step-content"><p>Do</p></div></li>' +
        '<li class="step"><div class="step-content"><p>Untitled</p></div></li></ol>',
    ],
    [
      'cards',
      parseMarkdown('::::cards\n:::card{title="Linked" href="/a?b=1&c=2"}\nBody\n:::\n:::card{title="Plain"}\n:::\n::::'),
      '<div class="cards"><a class="card" href="/a?b=1&amp;c=2"><h3 class="card-title">Linked</h3><div class="card-content"><p>Body</p></div></a>' +
        '<div class="card"><h3 class="card-title">Plain</h3><div class="card-content"></div></div></div>',
    ],
    ['strong', parseMarkdown('**b**'), '<p><strong>b</strong></p>'],
    ['em', parseMarkdown('*i*'), '<p><em>i</em></p>'],
    ['code', parseMarkdown('`<x>`'), '<p><code>&lt;x&gt;</code></p>'],
    ['strike', parseMarkdown('~~s~~'), '<p><s>s</s></p>'],
    ['link', parseMarkdown('[l](https://e.com/?q=1&r=2 "Title")'), '<p><a href="https://e.com/?q=1&amp;r=2" title="Title">l</a></p>'],
    ['nested marks share their element', parseMarkdown('[a **b** c](/x)'), '<p><a href="/x">a <strong>b</strong> c</a></p>'],
  ];

  it.each(cases)('%s', (_name, node, html) => {
    expect(toHtml(node)).toBe(html);
  });
});

// What a browser could be tricked with, as Markdown (parsed) or as stored JSON (which skips the Markdown
// parser's own link validation, so the renderer must hold on its own).
const ALLOWED_TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'blockquote', 'ul', 'ol', 'li', 'pre', 'code', 'hr', 'img', 'br', 'table', 'tbody', 'tr', 'th', 'td', 'div', 'a', 'em', 'strong', 's']);
const ALLOWED_ATTRS = new Set(['href', 'src', 'alt', 'title', 'class', 'start', 'style']);

function decodeAttr(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Every `<` starts an allowed tag with allowed, quoted attributes; URLs carry no script scheme. */
function expectSafe(html: string): void {
  const tag = /<\/?([a-z0-9]+)((?:\s[a-z-]+="[^"<>]*")*)>/g;
  const leftover = html.replace(tag, (_whole, name: string, attrs: string) => {
    expect(ALLOWED_TAGS.has(name)).toBe(true);
    for (const [, attr, raw] of attrs.matchAll(/\s([a-z-]+)="([^"]*)"/g)) {
      expect(ALLOWED_ATTRS.has(attr)).toBe(true);
      if (attr === 'href' || attr === 'src') {
        const compact = [...decodeAttr(raw)].filter((ch) => ch.charCodeAt(0) > 0x20 && !/\s/.test(ch)).join('').toLowerCase();
        expect(/^(javascript|vbscript|data:text|file):?/.test(compact)).toBe(false);
      }
      if (attr === 'style') expect(/^text-align: (left|center|right)$/.test(raw)).toBe(true);
    }
    return '';
  });
  expect(leftover).not.toMatch(/[<>]/);
}

const hostile: Array<[string, Node, string | RegExp]> = [
  ['script tag in Markdown', parseMarkdown('<script>alert(1)</script>'), '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
  ['img onerror in Markdown', parseMarkdown('<img src=x onerror=alert(1)>'), '<p>&lt;img src=x onerror=alert(1)&gt;</p>'],
  ['svg onload in Markdown', parseMarkdown('x <svg/onload=alert(1)> y'), '<p>x &lt;svg/onload=alert(1)&gt; y</p>'],
  ['event handler in raw anchor', parseMarkdown('<a href="#" onclick="alert(1)">x</a>'), '<p>&lt;a href=&quot;#&quot; onclick=&quot;alert(1)&quot;&gt;x&lt;/a&gt;</p>'.replace(/&quot;/g, '"')],
  ['javascript: link in Markdown', parseMarkdown('[x](javascript:alert(1))'), '<p>[x](javascript:alert(1))</p>'],
  ['mixed-case javascript: in Markdown', parseMarkdown('[x](JaVaScRiPt:alert(1))'), /^<p>\[x\]/],
  ['entity-encoded javascript: in Markdown', parseMarkdown('[x](&#106;avascript:alert(1))'), /^<p>\[x\]/],
  ['javascript: autolink in Markdown', parseMarkdown('<javascript:alert(1)>'), '<p>&lt;javascript:alert(1)&gt;</p>'],
  ['javascript: in angle destination', parseMarkdown('[x](<javascript:alert(1)>)'), /^<p>\[x\]/],
  ['javascript: link in JSON', doc(para(text('x', [link('javascript:alert(1)')]))), '<p><a>x</a></p>'],
  ['leading space and mixed case', doc(para(text('x', [link(' JaVaScRiPt:alert(1)')]))), '<p><a>x</a></p>'],
  ['tab inside the scheme', doc(para(text('x', [link('java\tscript:alert(1)')]))), '<p><a>x</a></p>'],
  ['newline inside the scheme', doc(para(text('x', [link('javascript\n:alert(1)')]))), '<p><a>x</a></p>'],
  ['NUL before the scheme', unchecked(para(text('x', [link('\u0000javascript:alert(1)')]))), '<p><a>x</a></p>'],
  ['zero-width and line separators', doc(para(text('x', [link('\u2028java\u200bscript:alert(1)')]))), '<p><a>x</a></p>'],
  ['vbscript: link', doc(para(text('x', [link('vbscript:msgbox(1)')]))), '<p><a>x</a></p>'],
  ['data: link', doc(para(text('x', [link('data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==')]))), '<p><a>x</a></p>'],
  ['entity in an href stays literal', doc(para(text('x', [link('&#106;avascript:alert(1)')]))), '<p><a href="&amp;#106;avascript:alert(1)">x</a></p>'],
  ['quote breaking out of href', doc(para(text('x', [link('/a" onmouseover="alert(1)', '" onfocus="alert(1)')]))), '<p><a href="/a&quot; onmouseover=&quot;alert(1)" title="&quot; onfocus=&quot;alert(1)">x</a></p>'],
  ['javascript: image src', doc(para(image('javascript:alert(1)'))), '<p></p>'],
  ['data:text/html image src', doc(para(image('data:text/html,<script>alert(1)</script>'))), '<p></p>'],
  ['"><img onerror> in image attributes', doc(para(image('x.png" onerror="alert(1)', '"><img src=x onerror=alert(1)>', "' onload='alert(1)"))), '<p><img src="x.png&quot; onerror=&quot;alert(1)" alt="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;" title="&#39; onload=&#39;alert(1)"></p>'],
  ['quotes in Markdown image title and alt', parseMarkdown('![a"b](/x.png "t\\"><img src=x onerror=alert(1)>")'), '<p><img src="/x.png" alt="a&quot;b" title="t&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"></p>'],
  ['javascript: card href', doc({ type: 'cards', content: [{ type: 'card', attrs: { title: 'c', href: 'javascript:alert(1)' } }] }), '<div class="cards"><div class="card"><h3 class="card-title">c</h3><div class="card-content"></div></div></div>'],
  ['markup in a card title', doc({ type: 'cards', content: [{ type: 'card', attrs: { title: '<img src=x onerror=alert(1)>', href: '/ok' } }] }), /<h3 class="card-title">&lt;img src=x onerror=alert\(1\)&gt;<\/h3>/],
  ['closing tags in a step title', doc({ type: 'steps', content: [{ type: 'step', attrs: { title: '</h3><script>alert(1)</script>' }, content: [para()] }] }), /<h3 class="step-title">&lt;\/h3&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;<\/h3>/],
  ['markup in a code language', doc({ type: 'code_block', attrs: { language: 'js"><script>alert(1)</script>' }, content: [text('x')] }), '<pre><code class="language-js&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">x</code></pre>'],
  ['iframe in text', doc(para(text('<iframe src="javascript:alert(1)"></iframe>'))), '<p>&lt;iframe src="javascript:alert(1)"&gt;&lt;/iframe&gt;</p>'],
  ['script in a code span', parseMarkdown('`<script>alert(1)</script>`'), '<p><code>&lt;script&gt;alert(1)&lt;/script&gt;</code></p>'],
  ['script in a table cell', parseMarkdown('| <b onmouseover=alert(1)>x</b> |\n| --- |'), '<table><tbody><tr><th>&lt;b onmouseover=alert(1)&gt;x&lt;/b&gt;</th></tr></tbody></table>'],
  ['directive attribute injection', parseMarkdown(':::callout{variant="info\\" onclick=\\"alert(1)"}\nx\n:::'), '<div class="callout callout-info"><p>x</p></div>'],
];

describe('toHtml: alignmentClasses', () => {
  it('writes aligned cells with classes instead of inline style, for pages whose CSP allows no inline style', () => {
    const table = parseMarkdown('| a | b | c |\n| :-: | --: | --- |\n| 1 | 2 | 3 |');
    expect(toHtml(table, { alignmentClasses: true })).toBe(
      '<table><tbody><tr><th class="align-center">a</th><th class="align-right">b</th><th>c</th></tr>' +
        '<tr><td class="align-center">1</td><td class="align-right">2</td><td>3</td></tr></tbody></table>',
    );
    expect(toHtml(table)).toContain('<th style="text-align: center">a</th>');
  });
});

describe('toHtml: hostile input', () => {
  it.each(hostile)('%s', (_name, node, expected) => {
    const html = toHtml(node);
    expectSafe(html);
    if (typeof expected === 'string') expect(html).toBe(expected);
    else expect(html).toMatch(expected);
  });

  it('keeps allowed URLs: http(s), mailto, relative, fragment, protocol-relative, data:image', () => {
    const hrefs = ['https://e.com', 'HTTP://E.COM', 'mailto:a@b.c', '/x', '#top', './a', '../b', 'page.html', '//cdn.e.com/x', '?q=1'];
    const html = toHtml(doc(para(...hrefs.map((href) => text(href, [link(href)])))));
    for (const href of hrefs) expect(html).toContain(`<a href="${href}">`);
    const img = toHtml(doc(para(image('data:image/png;base64,iVBORw0KGgo='), image('data:IMAGE/svg+xml,<svg/>'))));
    expect(img).toBe('<p><img src="data:image/png;base64,iVBORw0KGgo="><img src="data:IMAGE/svg+xml,&lt;svg/&gt;"></p>');
    expect(toHtml(doc(para(image('mailto:a@b.c'))))).toBe('<p></p>');
  });

  it('passes image sources through assetUrl, then applies the allow-list to the result', () => {
    const node = doc(para(image('user-images/ab12.png', 'A'), image('evil')));
    const html = toHtml(node, { assetUrl: (src) => (src === 'evil' ? 'javascript:alert(1)' : `https://static.example.com/${src}`) });
    expect(html).toBe('<p><img src="https://static.example.com/user-images/ab12.png" alt="A"></p>');
    expect(node.firstChild!.firstChild!.attrs['src']).toBe('user-images/ab12.png');
  });
});

describe('toHtml: the renderer on its own', () => {
  const withSpec = (spec: DOMOutputSpec): Node => {
    const schema = new Schema({ nodes: { doc: { content: 'x' }, x: { content: 'text*', toDOM: () => spec }, text: {} } });
    return schema.node('doc', null, [schema.node('x', null, [schema.text('<t>')])]);
  };

  it('drops event handlers and unsafe URLs even when a toDOM spec produces them', () => {
    const html = toHtml(withSpec(['a', { href: ' javascript:alert(1)', onclick: 'alert(1)', onmouseover: 'x', title: '"x"' }, ['img', { src: 'javascript:x', alt: 'a' }], 0]));
    expect(html).toBe('<a title="&quot;x&quot;"><img alt="a">&lt;t&gt;</a>');
  });

  it('refuses tag names that are not plain identifiers and skips such attribute names', () => {
    expect(() => toHtml(withSpec(['script src=x', 0]))).toThrow('invalid tag name');
    expect(toHtml(withSpec(['p', { 'x" onload="y': 1, 'data-ok': 'v' }, 0]))).toBe('<p data-ok="v">&lt;t&gt;</p>');
  });

  it('puts content inside the outer element when a spec has no hole, and in nested holes', () => {
    expect(toHtml(withSpec(['div', { class: 'a' }, ['span', 'label']]))).toBe('<div class="a"><span>label</span>&lt;t&gt;</div>');
    expect(toHtml(withSpec(['div', ['h3', 'T'], ['section', ['p', 0]]]))).toBe('<div><h3>T</h3><section><p>&lt;t&gt;</p></section></div>');
  });
});

describe('toHtml speed', () => {
  it('renders a typical 5 KB article fast (prints the rate; the bound is only a sanity check)', () => {
    const section = (i: number): string =>
      [
        `## Section ${i}: configure the *widget*`,
        `Open **Settings → Widgets** and pick [the right plan](https://example.com/plans?ref=${i}). Use \`npm run build\` & wait.`,
        '* First point with a [link](/docs/a)\n* Second point, ~~old~~ new\n* Third point',
        ':::callout{variant="warning"}\nBack up your data before you <continue>.\n:::',
        '| Plan | Price |\n| --- | ---: |\n| Basic | $5 |\n| Pro | $15 |',
        '```ts\nconst widget = create({ id: "w1" });\nwidget.mount(document.body);\n```',
        '![Screenshot](user-images/shot.png "The widget")',
      ].join('\n\n');
    const markdown = Array.from({ length: 10 }, (_, i) => section(i)).join('\n\n');
    const node = parseMarkdown(markdown);
    const once = toHtml(node);
    expect(markdown.length).toBeGreaterThan(4500);
    const assetUrl = (src: string): string => `https://static.example.com/${src}`;
    for (let i = 0; i < 300; i++) toHtml(node, { assetUrl });
    let count = 0;
    const started = process.hrtime.bigint();
    let elapsed = 0;
    while (elapsed < 500) {
      for (let i = 0; i < 100; i++) toHtml(node, { assetUrl });
      count += 100;
      elapsed = Number(process.hrtime.bigint() - started) / 1e6;
    }
    const rate = Math.round((count / elapsed) * 1000);
    console.log(`toHtml: ${rate} docs/s for a ${markdown.length}-byte Markdown article (${once.length} bytes of HTML)`);
    expect(rate).toBeGreaterThan(500);
  });
});
