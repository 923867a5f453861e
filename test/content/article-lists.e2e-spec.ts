import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Response } from 'supertest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { ARTICLE_KEYS, NO_LIMITS } from '../support/articles.js';
import { clockPast } from '../support/clock.js';
import { errorBody } from '../support/errors.js';
import { outcome } from '../support/outcome.js';
import { defaultSectionId } from '../support/sections.js';

jest.setTimeout(60_000);

interface Article {
  id: string;
  title: string;
  status: string;
  collectionId: string | null;
  createdAt: string;
  updatedAt: string;
  contentHtml?: string;
  contentMarkdown?: string;
  contentJson?: unknown;
}

interface Page {
  results: Article[];
  has_more: boolean;
  next_cursor: string | null;
}

/** What the fixture knows of an article: its status and collection as the lists should see them. */
interface Known {
  id: string;
  status: 'draft' | 'published' | 'trashed';
  collectionId: string | null;
}

describe('GET /v1/articles', () => {
  let t: TestApp;
  let reader: string;
  let writer: string;
  let publishOnly: string;
  let editor: string;
  let general: string;
  let colA: string;
  let colB: string;
  /** Every article of the fixture in creation order (oldest first). */
  const known: Known[] = [];

  /** IDs the list should return, newest first. */
  function expected(statuses: readonly string[], collectionId?: string): string[] {
    return known
      .filter((a) => statuses.includes(a.status) && (collectionId === undefined || a.collectionId === collectionId))
      .map((a) => a.id)
      .reverse();
  }

  async function list(query: Record<string, string | number>, key = editor): Promise<Response> {
    return t.http.get('/v1/articles').query(query).set(bearer(key));
  }

  async function page(query: Record<string, string | number>, key = editor): Promise<Page> {
    const res = await list(query, key);
    expect(outcome(res)).toMatchObject({ status: 200 });
    expect(Object.keys(res.body).sort()).toEqual(['has_more', 'next_cursor', 'results']);
    return res.body;
  }

  /** Follows next_cursor from the first page to the last; `later` is the query of every page after the first. */
  async function walk(first: Record<string, string | number>, later: Record<string, string | number>, key = editor): Promise<Page[]> {
    const pages: Page[] = [await page(first, key)];
    while (pages.at(-1)!.next_cursor) {
      pages.push(await page({ ...later, start_cursor: pages.at(-1)!.next_cursor! }, key));
      expect(pages.length).toBeLessThan(100);
    }
    return pages;
  }

  async function create(title: string, options: { publish?: boolean; collectionId?: string; trash?: boolean } = {}): Promise<Known> {
    const res = await t.http
      .post('/v1/articles')
      .set(bearer(editor))
      .send({ title, sectionId: general, markdown: `Body of ${title}`, publish: options.publish ?? false, ...(options.collectionId ? { collectionId: options.collectionId } : {}) });
    expect(outcome(res)).toMatchObject({ status: 201 });
    const entry: Known = { id: res.body.id, status: options.publish ? 'published' : 'draft', collectionId: options.collectionId ?? null };
    if (options.trash) {
      await t.http.delete(`/v1/articles/${entry.id}`).set(bearer(editor)).expect(200);
      entry.status = 'trashed';
    }
    known.push(entry);
    return entry;
  }

  beforeAll(async () => {
    t = await startTestApp({ env: NO_LIMITS });
    reader = await t.key(['content:read']);
    writer = await t.key(['content:write']);
    publishOnly = await t.key(['content:publish']);
    editor = await t.key(['content:write', 'content:publish']);
    general = await defaultSectionId(t, reader);
    colA = (await t.http.post('/v1/collections').set(bearer(editor)).send({ title: 'A' }).expect(201)).body.id;
    colB = (await t.http.post('/v1/collections').set(bearer(editor)).send({ title: 'B' }).expect(201)).body.id;
    // One at a time, so that creation order is well defined. 21 published: more than one default page.
    for (let i = 0; i < 14; i++) await create(`Filler ${i}`, { publish: true });
    await create('P0', { publish: true, collectionId: colB });
    await create('D0');
    await create('P1', { publish: true, collectionId: colA });
    await create('T0', { publish: true, collectionId: colA, trash: true });
    await create('P2', { publish: true });
    await create('D1', { collectionId: colA });
    await create('P3', { publish: true, collectionId: colA });
    await create('T1', { trash: true });
    await create('P4', { publish: true });
    await create('P5', { publish: true, collectionId: colA });
    await create('P6', { publish: true });
  });
  afterAll(() => t.close());

  describe('cursor form', () => {
    it('by default: published articles only, newest first, article objects without draft_id', async () => {
      const first = await page({ page_size: 100 }, reader);
      expect(first).toMatchObject({ has_more: false, next_cursor: null });
      expect(first.results.map((a) => a.id)).toEqual(expected(['published']));
      for (const article of first.results) {
        expect(Object.keys(article).sort()).toEqual(ARTICLE_KEYS);
        expect(article.status).toBe('published');
      }
      expect((await page({ page_size: 100, status: 'published' }, reader)).results).toEqual(first.results);
    });

    it('status draft and all (content:write): drafts, or drafts and published, never trashed', async () => {
      expect((await page({ page_size: 100, status: 'draft' }, writer)).results.map((a) => a.id)).toEqual(expected(['draft']));
      const all = (await page({ page_size: 100, status: 'all' }, writer)).results;
      expect(all.map((a) => a.id)).toEqual(expected(['draft', 'published']));
      expect(all.some((a) => a.status === 'trashed')).toBe(false);
    });

    it('status draft or all without content:write → 403 insufficient_scope naming content:write', async () => {
      for (const key of [reader, publishOnly]) {
        for (const status of ['draft', 'all']) {
          const res = await list({ status }, key);
          expect(outcome(res)).toEqual({ status: 403, body: errorBody('insufficient_scope', expect.stringContaining('content:write')) });
        }
      }
      expect((await list({}, publishOnly)).status).toBe(200);
    });

    it('status trashed, or any other value → 400 invalid_request', async () => {
      for (const status of ['trashed', 'ALL', 'bogus', '']) {
        expect(outcome(await list({ status }))).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      }
    });

    it('collection_id filters to one collection', async () => {
      expect((await page({ page_size: 100, collection_id: colA }, reader)).results.map((a) => a.id)).toEqual(expected(['published'], colA));
      expect((await page({ page_size: 100, collection_id: colA, status: 'all' })).results.map((a) => a.id)).toEqual(expected(['draft', 'published'], colA));
      expect((await page({ page_size: 100, collection_id: colB })).results.map((a) => a.id)).toEqual(expected(['published'], colB));
      expect((await page({ collection_id: 'col_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' })).results).toEqual([]);
    });

    it('format markdown and json return contentMarkdown or contentJson instead of contentHtml; a bad format → 400', async () => {
      const md = await page({ page_size: 3, format: 'markdown' });
      for (const article of md.results) {
        expect(Object.keys(article).sort()).toEqual([...ARTICLE_KEYS.filter((k) => k !== 'contentHtml'), 'contentMarkdown'].sort());
        expect(article.contentMarkdown).toContain(`Body of ${article.title}`);
      }
      const json = await page({ page_size: 3, format: 'json' });
      for (const article of json.results) {
        expect(Object.keys(article).sort()).toEqual([...ARTICLE_KEYS.filter((k) => k !== 'contentHtml'), 'contentJson'].sort());
        expect(article.contentJson).toMatchObject({ type: 'doc' });
      }
      const html = await page({ page_size: 3 });
      for (const article of html.results) expect(article.contentHtml).toContain(`Body of ${article.title}`);
      expect(outcome(await list({ format: 'xml' }))).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    });

    it('page_size: default 20, 1 to 100 accepted, anything else → 400', async () => {
      const first = await page({}, reader);
      expect(first.results.map((a) => a.id)).toEqual(expected(['published']).slice(0, 20));
      expect(first.has_more).toBe(true);
      expect((await page({ page_size: 1 })).results).toHaveLength(1);
      expect((await page({ page_size: 100 })).results).toHaveLength(expected(['published']).length);
      for (const value of ['0', '101', '-1', '1.5', 'abc', '']) {
        expect({ value, ...outcome(await list({ page_size: value })) }).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      }
    });

    it('walking all pages with page_size 2 returns each article exactly once, newest first', async () => {
      for (const status of ['published', 'all']) {
        const query = { page_size: 2, status };
        const pages = await walk(query, query);
        const ids = pages.flatMap((p) => p.results.map((a) => a.id));
        expect(ids).toEqual(expected(status === 'all' ? ['draft', 'published'] : ['published']));
        expect(new Set(ids).size).toBe(ids.length);
        for (const p of pages.slice(0, -1)) expect(p).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
        expect(pages.at(-1)).toMatchObject({ has_more: false, next_cursor: null });
      }
      // The default list needs only start_cursor on later pages.
      const pages = await walk({ page_size: 2 }, { page_size: 2 }, reader);
      expect(pages.flatMap((p) => p.results.map((a) => a.id))).toEqual(expected(['published']));
    });

    it('a tampered cursor, or one of another list → 400 invalid_cursor', async () => {
      const first = await page({ page_size: 2 });
      const cursor = first.next_cursor!;
      const tampered = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
      expect(outcome(await list({ start_cursor: tampered }))).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } });
      expect(outcome(await list({ start_cursor: 'garbage' }))).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } });
      const collections = (await t.http.get('/v1/collections').query({ page_size: 1 }).set(bearer(reader)).expect(200)).body;
      expect(collections.next_cursor).toEqual(expect.any(String));
      expect(outcome(await list({ start_cursor: collections.next_cursor }))).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } });
    });
  });

  describe('offset form (limit, offset)', () => {
    it('answers {items, limit, offset, total}, newest first', async () => {
      const published = expected(['published']);
      const res = await list({ limit: 3, offset: 2 }, reader);
      expect(outcome(res)).toMatchObject({ status: 200 });
      expect(Object.keys(res.body).sort()).toEqual(['items', 'limit', 'offset', 'total']);
      expect(res.body).toMatchObject({ limit: 3, offset: 2, total: published.length });
      expect((res.body.items as Article[]).map((a) => a.id)).toEqual(published.slice(2, 5));
      for (const article of res.body.items as Article[]) expect(Object.keys(article).sort()).toEqual(ARTICLE_KEYS);

      const defaults = (await list({ offset: 0 }, reader)).body;
      expect(defaults).toMatchObject({ limit: 20, offset: 0, total: published.length });
      expect((defaults.items as Article[]).map((a) => a.id)).toEqual(published.slice(0, 20));
      expect((await list({ limit: 100 }, reader)).body).toMatchObject({ limit: 100, offset: 0, total: published.length });
      expect((await list({ limit: 5, offset: 1000 }, reader)).body).toEqual({ items: [], limit: 5, offset: 1000, total: published.length });
      // The earlier form lists all articles: with content:write, drafts too (never trashed ones).
      const everything = expected(['draft', 'published']);
      expect((await list({ limit: 100 }, writer)).body).toMatchObject({ limit: 100, offset: 0, total: everything.length });
    });

    it('takes status, collection_id and format; status all needs content:write and has no trashed articles', async () => {
      const all = (await list({ limit: 100, status: 'all' }, writer)).body;
      expect((all.items as Article[]).map((a) => a.id)).toEqual(expected(['draft', 'published']));
      expect(all.total).toBe(expected(['draft', 'published']).length);
      expect((await list({ limit: 100, status: 'all' }, reader)).status).toBe(403);
      const inA = (await list({ limit: 100, status: 'all', collection_id: colA })).body;
      expect((inA.items as Article[]).map((a) => a.id)).toEqual(expected(['draft', 'published'], colA));
      expect(inA.total).toBe(expected(['draft', 'published'], colA).length);
      const md = (await list({ limit: 1, format: 'markdown' })).body.items[0] as Article;
      expect(md.contentMarkdown).toEqual(expect.any(String));
      expect(md.contentHtml).toBeUndefined();
    });

    it('limit out of 1-100, a negative offset, or mixing with page_size/start_cursor → 400 invalid_request', async () => {
      const queries: Array<Record<string, string | number>> = [{ limit: 0 }, { limit: 101 }, { limit: 'abc' }, { offset: -1 }, { offset: 'x' }, { limit: 5, page_size: 5 }, { offset: 0, page_size: 5 }];
      for (const query of queries) {
        expect({ query, ...outcome(await list(query)) }).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      }
      const cursor = (await page({ page_size: 1 })).next_cursor!;
      expect(outcome(await list({ limit: 5, start_cursor: cursor }))).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    });
  });

  describe('updated_since', () => {
    /** Touched after the mark, in this order: oldest-updated first. */
    const touched: Known[] = [];
    let mark: string;
    let touchTimes: string[];

    beforeAll(async () => {
      const latest = (await page({ page_size: 100, status: 'all' })).results.map((a) => a.updatedAt).sort().at(-1)!;
      await clockPast(latest);
      mark = new Date().toISOString();
      touchTimes = [];
      const byTitle = async (title: string) => {
        const results = (await page({ page_size: 100, status: 'all' })).results;
        return known.find((k) => k.id === results.find((a) => a.title === title)!.id)!;
      };
      for (const title of ['P2', 'D0', 'Filler 3', 'P0', 'P6']) {
        const article = await byTitle(title);
        const res = await t.http.patch(`/v1/articles/${article.id}`).set(bearer(editor)).send({ keywords: `touched ${title}` });
        expect(outcome(res)).toMatchObject({ status: 200 });
        touched.push(article);
        touchTimes.push(res.body.updatedAt);
        await clockPast(res.body.updatedAt);
      }
      // Touched, then trashed: never listed.
      await create('Touched then trashed', { publish: true, trash: true });
    });

    it('only articles updated at or after the time, oldest-updated first', async () => {
      const all = await page({ updated_since: mark, status: 'all', page_size: 100 });
      expect(all.results.map((a) => a.id)).toEqual(touched.map((a) => a.id));
      const published = await page({ updated_since: mark, page_size: 100 }, reader);
      expect(published.results.map((a) => a.id)).toEqual(touched.filter((a) => a.status === 'published').map((a) => a.id));
      const updated = all.results.map((a) => a.updatedAt);
      expect([...updated].sort()).toEqual(updated);
      for (const at of updated) expect(at >= mark).toBe(true);
    });

    it('"at or after": an article updated exactly at the time is included', async () => {
      const res = await page({ updated_since: touchTimes[3]!, status: 'all', page_size: 100 });
      expect(res.results.map((a) => a.id)).toEqual(touched.slice(3).map((a) => a.id));
    });

    it('the next_cursor keeps that ordering without repeating updated_since', async () => {
      const pages = await walk({ updated_since: mark, status: 'all', page_size: 2 }, { status: 'all', page_size: 2 });
      expect(pages.map((p) => p.results.length)).toEqual([2, 2, 1]);
      expect(pages.flatMap((p) => p.results.map((a) => a.id))).toEqual(touched.map((a) => a.id));
      expect(pages.at(-1)).toMatchObject({ has_more: false, next_cursor: null });
      // Published only, one at a time, later pages carry nothing but the cursor.
      const single = await walk({ updated_since: mark, page_size: 1 }, { page_size: 1 }, reader);
      expect(single.flatMap((p) => p.results.map((a) => a.id))).toEqual(touched.filter((a) => a.status === 'published').map((a) => a.id));
    });

    it('a time with an offset is the same instant; a future time lists nothing; a non-date → 400', async () => {
      const instant = new Date(Date.parse(mark) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
      const shifted = await page({ updated_since: instant, status: 'all', page_size: 100 });
      expect(shifted.results.map((a) => a.id)).toEqual(touched.map((a) => a.id));
      expect((await page({ updated_since: '2999-01-01T00:00:00.000Z' })).results).toEqual([]);
      for (const value of ['yesterday', '2026-13-01T00:00:00Z', '']) {
        expect({ value, ...outcome(await list({ updated_since: value })) }).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      }
    });
  });
});
