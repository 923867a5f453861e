import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';

jest.setTimeout(60_000);

interface Hit {
  id: string;
  locale: string;
  snippet: string;
}

/** What every snippet must be: one line, single spaces, no Markdown left, HTML with only balanced <mark> tags. */
function expectClean(snippet: string): void {
  expect(snippet).not.toMatch(/[\n\r\t]/);
  expect(snippet).not.toMatch(/ {2}/);
  expect(snippet).toBe(snippet.trim());
  expect(snippet).not.toMatch(/\*\*|\]\(|:::|`|\||\\/);
  // eslint-disable-next-line no-control-regex -- no control character (a highlight marker) may be left
  expect(snippet).not.toMatch(/[\u0000-\u001f]/);
  const tags = snippet.match(/<[^>]*>/g) ?? [];
  expect(tags.every((tag) => tag === '<mark>' || tag === '</mark>')).toBe(true);
  expect(tags.join('')).toBe('<mark></mark>'.repeat(tags.length / 2));
  // Outside the tags, everything is escaped text.
  expect(snippet.replace(/<\/?mark>/g, '')).not.toMatch(/[<>"']/);
}

describe('search snippets: clean text from the article, highlighted and HTML-safe', () => {
  let t: TestApp;
  let key: string;
  let sectionId: string;
  let db: pg.Client;

  async function publish(title: string, markdown: string): Promise<string> {
    return (await t.http.post('/v1/articles').set(bearer(key)).send({ title, sectionId, markdown, publish: true }).expect(201)).body.id as string;
  }

  async function search(query: string, locale?: string): Promise<Hit[]> {
    const params = new URLSearchParams({ query, ...(locale ? { locale } : {}) });
    return (await t.http.get(`/v1/articles/search?${params.toString()}`).set(bearer(key)).expect(200)).body.results as Hit[];
  }

  beforeAll(async () => {
    t = await startTestApp({ env: { ...NO_LIMITS, HELPDESK_LANGUAGES: 'en,fr' } });
    key = await t.key(null);
    sectionId = (await t.http.get('/v1/sections').set(bearer(key)).expect(200)).body.results[0].id;
    db = new pg.Client({ connectionString: t.databaseUrl! });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await t?.close();
  });

  it('reads as the article reads: single spaces, punctuation kept, no line breaks or Markdown syntax', async () => {
    const id = await publish(
      'Resetting a password',
      [
        '# Welcome',
        '',
        'This guide explains how to **reset your password**, and what to do when the [reset link](https://example.com/help "Help") expires. It\'s quick!',
        '',
        '1. Open *Settings*.',
        '2. Click "Reset password".',
      ].join('\n'),
    );
    const [hit] = await search('password');
    expect(hit!.id).toBe(id);
    expectClean(hit!.snippet);
    expect(hit!.snippet).toBe(
      'Welcome This guide explains how to reset your <mark>password</mark>, and what to do when the reset link expires. It&#39;s quick! Open Settings. Click &quot;Reset <mark>password</mark>&quot;.',
    );
  });

  it('keeps the punctuation at the ends of fragments, and joins two fragments with an ellipsis', async () => {
    const filler = 'Other words follow here without the term, sentence after sentence, until the first fragment is long over and done.';
    const id = await publish('Long article', `The zorptag policy applies to everyone. ${filler} ${filler} Finally, see the "zorptag".`);
    const [hit] = (await search('zorptag')).filter((h) => h.id === id);
    expectClean(hit!.snippet);
    // ts_headline starts a fragment at a matched word; the quotes and the final stop around it are the text's.
    expect(hit!.snippet).toMatch(/^<mark>zorptag<\/mark> policy applies to everyone\. Other words .* … .* done\. Finally, see the &quot;<mark>zorptag<\/mark>&quot;\.$/);
  });

  it('keeps the words of every kind of block: lists, quotes, tables, code, callouts, step and card titles, image alt text', async () => {
    const id = await publish(
      'Every block',
      [
        '> A quoted *flumox* tip.',
        '',
        '* First ~~old~~ flumox item',
        '  * Nested flumox item',
        '',
        '| Flumox | Where |',
        '| :-- | --: |',
        '| Column | Settings |',
        '',
        '```bash',
        'flumox --reset',
        '```',
        '',
        ':::callout{variant="warning"}',
        'Careful with the flumox.',
        ':::',
        '',
        '::::steps',
        ':::step{title="Find the \\"flumox\\" menu"}',
        'Then act.',
        ':::',
        '::::',
        '',
        '![A flumox diagram](data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7)',
        '',
        '---',
        '',
        'Snake_case_words, 2 * 3 = 6, 100% [not a link] & <b>bold</b> text\\',
        'after a hard break.',
      ].join('\n'),
    );
    // The text snippets are cut from (and the body is indexed by), straight from the stored Markdown.
    const [{ text }] = (
      await db.query<{ text: string }>('SELECT help_plain_text(r.content_markdown) AS text FROM articles a JOIN article_revisions r ON r.id = a.live_revision_id WHERE a.id = $1', [id])
    ).rows;
    expect(text).toBe(
      'A quoted flumox tip. First old flumox item Nested flumox item Flumox Where Column Settings flumox --reset Careful with the flumox. ' +
        'Find the "flumox" menu Then act. A flumox diagram Snake_case_words, 2 * 3 = 6, 100% [not a link] & bold text after a hard break.',
    );
    const [hit] = (await search('flumox')).filter((h) => h.id === id);
    expectClean(hit!.snippet);
    // The whole plain text, one fragment at a time (a query matching its end).
    const [end] = (await search('"hard break"')).filter((h) => h.id === id);
    expectClean(end!.snippet);
    // Tag-like text (<b>) is what ts_headline blanks out of a headline, so the plain text leaves it out.
    expect(end!.snippet).toContain('Snake_case_words, 2 * 3 = 6, 100% [not a link] &amp; bold text after a <mark>hard</mark> <mark>break</mark>.');
  });

  it('never takes text for a highlight marker: control characters in an article are not <mark>', async () => {
    const id = await publish('Markers', 'Plain \u0001 text \u0002 about quibbleton \u0003 here.');
    const [hit] = (await search('quibbleton')).filter((h) => h.id === id);
    expectClean(hit!.snippet);
    expect(hit!.snippet).toBe('Plain text about <mark>quibbleton</mark> here.');
  });

  it('gives translations the same clean snippets', async () => {
    const id = await publish('Source', 'Source text.');
    await t.http
      .put(`/v1/articles/${id}/translations/fr`)
      .set(bearer(key))
      .send({ title: 'Réinitialiser', markdown: '## Bienvenue\n\nCe guide explique comment **réinitialiser** votre [mot de passe](https://example.com), puis quoi faire !' })
      .expect(201);
    await t.http.post(`/v1/articles/${id}/translations/fr/publish`).set(bearer(key)).expect(200);
    const [hit] = await search('passe', 'fr');
    expect(hit!.locale).toBe('fr');
    expectClean(hit!.snippet);
    expect(hit!.snippet).toBe('Bienvenue Ce guide explique comment réinitialiser votre mot de <mark>passe</mark>, puis quoi faire !');
  });
});
