import { describe, expect, it } from '@jest/globals';
import { fromJson, imageSources, mapImageSources, parseMarkdown, renderContent, toHtml, toMarkdown } from './index.js';

const markdown = [
  '![one](a.png)',
  '',
  '| x | ![two](b.png) |',
  '| --- | --- |',
  '',
  ':::callout{variant="info"}',
  'Text ![three](a.png "again") and [![four](https://cdn.example.com/d.png)](/x)',
  ':::',
  '',
  '```',
  '![not an image](code.png)',
  '```',
].join('\n');

describe('imageSources', () => {
  it('lists every image src in document order, duplicates included, skipping code', () => {
    expect(imageSources(parseMarkdown(markdown))).toEqual(['a.png', 'b.png', 'a.png', 'https://cdn.example.com/d.png']);
  });

  it('is empty for a document without images', () => {
    expect(imageSources(parseMarkdown('just *text*'))).toEqual([]);
  });
});

describe('mapImageSources', () => {
  it('replaces every src and keeps everything else', () => {
    const doc = parseMarkdown(markdown);
    const mapped = mapImageSources(doc, (src) => `user-images/${src.replace(/\W/g, '_')}`);
    expect(imageSources(mapped)).toEqual(['user-images/a_png', 'user-images/b_png', 'user-images/a_png', 'user-images/https___cdn_example_com_d_png']);
    mapped.check();
    const images: Array<Record<string, unknown>> = [];
    mapped.descendants((node) => {
      if (node.type.name === 'image') images.push({ ...node.attrs, marks: node.marks.map((m) => m.type.name) });
    });
    expect(images[2]).toEqual({ src: 'user-images/a_png', alt: 'three', title: 'again', marks: [] });
    expect(images[3]).toMatchObject({ alt: 'four', marks: ['link'] });
    expect(toMarkdown(mapped).replace(/\]\([^)]*\)/g, '')).toBe(toMarkdown(doc).replace(/\]\([^)]*\)/g, ''));
  });

  it('returns the same document (and shares untouched parts) when nothing changes', () => {
    const doc = parseMarkdown(markdown);
    expect(mapImageSources(doc, (src) => src)).toBe(doc);
    const mapped = mapImageSources(doc, (src) => (src === 'b.png' ? 'c.png' : src));
    expect(mapped).not.toBe(doc);
    expect(mapped.child(0)).toBe(doc.child(0));
    expect(mapped.child(2)).toBe(doc.child(2));
  });

  it('does not change the original document', () => {
    const doc = parseMarkdown(markdown);
    const before = doc.toJSON();
    mapImageSources(doc, () => 'x.png');
    expect(doc.toJSON()).toEqual(before);
  });
});

describe('renderContent', () => {
  it('returns JSON, Markdown and HTML of the same document; assetUrl touches the Markdown and the HTML, not the JSON', () => {
    const doc = parseMarkdown('# Title\n\n![pic](user-images/p.png)');
    const rendered = renderContent(doc, { assetUrl: (src) => `https://static.example.com/${src}` });
    expect(rendered.markdown).toBe('# Title\n\n![pic](https://static.example.com/user-images/p.png)');
    expect(rendered.html).toBe('<h1>Title</h1><p><img src="https://static.example.com/user-images/p.png" alt="pic"></p>');
    expect(fromJson(rendered.json).eq(doc)).toBe(true);
    expect(JSON.parse(JSON.stringify(rendered.json))).toEqual(rendered.json);
  });

  it('matches the single converters without options', () => {
    const doc = parseMarkdown(markdown);
    expect(renderContent(doc)).toEqual({ json: doc.toJSON(), markdown: toMarkdown(doc), html: toHtml(doc) });
  });
});
