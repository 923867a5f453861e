import { describe, expect, it } from '@jest/globals';
import { headingOutline, headingSlug, parseMarkdown, toHtml } from './index.js';

describe('heading anchors', () => {
  const doc = parseMarkdown(
    [
      '# Title',
      '## Reset your password',
      'Text',
      '### Step <1> & "two"',
      '## Reset your password',
      '## Reset your password-2',
      '#### Deep',
      '## Réinitialiser le mot de passe',
      '## ',
      '## Feedback',
      ':::callout{variant="info"}\n## Inside a callout\n:::',
    ].join('\n\n'),
  );

  it('are off by default: the HTML is what the API stores', () => {
    expect(toHtml(doc)).not.toContain(' id=');
  });

  it('give level 2 and 3 headings stable, unique ids from their text, listed by headingOutline in the same order', () => {
    const options = { reservedIds: ['feedback'] };
    const html = toHtml(doc, { headingIds: true, ...options });
    const outline = headingOutline(doc, options);
    expect(outline).toEqual([
      { id: 'reset-your-password', text: 'Reset your password', level: 2 },
      { id: 'step-1-two', text: 'Step <1> & "two"', level: 3 },
      { id: 'reset-your-password-2', text: 'Reset your password', level: 2 },
      { id: 'reset-your-password-2-2', text: 'Reset your password-2', level: 2 },
      { id: 'reinitialiser-le-mot-de-passe', text: 'Réinitialiser le mot de passe', level: 2 },
      { id: 'section', text: '', level: 2 },
      { id: 'feedback-2', text: 'Feedback', level: 2 },
      { id: 'inside-a-callout', text: 'Inside a callout', level: 2 },
    ]);
    const ids = [...html.matchAll(/<h([23]) id="([^"]*)">/g)].map((m) => m[2]);
    expect(ids).toEqual(outline.map((entry) => entry.id));
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<h4>Deep</h4>');
    expect(html).toContain('<h3 id="step-1-two">Step &lt;1&gt; &amp; "two"</h3>');
    // The same document renders the same ids again.
    expect(toHtml(doc, { headingIds: true, ...options })).toBe(html);
  });

  it('slugs keep letters and digits of any script', () => {
    expect(headingSlug('Über 2 Größen')).toBe('uber-2-großen');
    expect(headingSlug('日本語 テキスト')).toBe('日本語-テキスト');
    expect(headingSlug('!!!')).toBe('section');
    expect(headingSlug('a'.repeat(100))).toHaveLength(64);
  });
});
