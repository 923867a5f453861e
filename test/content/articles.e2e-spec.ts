import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import type { Response } from 'supertest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { ARTICLE_KEYS, NO_LIMITS } from '../support/articles.js';
import { clockPast } from '../support/clock.js';
import { errorBody } from '../support/errors.js';
import { ARTICLE_ID, ISO_MS, REVISION_ID, ULID, UNKNOWN_ARTICLE, UNKNOWN_COLLECTION, UNKNOWN_SECTION } from '../support/formats.js';
import { outcome } from '../support/outcome.js';
import { allItems } from '../support/pages.js';
import { defaultSectionId } from '../support/sections.js';
import { uniqueTitle } from '../support/unique.js';

jest.setTimeout(60_000);

const DRAFT_ID = new RegExp(`^drf_${ULID}$`);

interface Article {
  id: string;
  title: string;
  slug: string;
  contentHtml?: string;
  contentMarkdown?: string;
  contentJson?: Record<string, unknown> | null;
  url: string | null;
  sectionId: string;
  collectionId: string | null;
  status: string;
  publishedAt: string | null;
  keywords: string | null;
  metaDescription: string | null;
  ogImage: string | null;
  createdAt: string;
  updatedAt: string;
  draft_id?: string | null;
}

describe('articles', () => {
  let t: TestApp;
  let db: pg.Client;
  /** content:read only. */
  let reader: string;
  /** content:write only (implies content:read). */
  let writer: string;
  /** content:publish only (implies content:read). */
  let publishOnly: string;
  /** content:write + content:publish. */
  let editor: string;
  /** Legacy key: null scopes, full access. */
  let legacy: string;
  let general: string;

  async function rows<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await db.query(sql, params)).rows as T[];
  }

  /** Everything an article write could touch, for "nothing was written" checks. */
  async function snapshot(): Promise<unknown> {
    // One after the other: a pg.Client runs one query at a time.
    const articles = await rows('SELECT * FROM articles ORDER BY id');
    const revisions = await rows('SELECT * FROM article_revisions ORDER BY id');
    const drafts = await rows('SELECT * FROM article_drafts ORDER BY id');
    return { articles, revisions, drafts };
  }

  async function versions(articleId: string): Promise<number[]> {
    return (await rows<{ version: number }>('SELECT version FROM article_revisions WHERE article_id = $1 ORDER BY version', [articleId])).map((r) => r.version);
  }

  async function create(body: Record<string, unknown>, key = editor): Promise<Article> {
    const res = await t.http.post('/v1/articles').set(bearer(key)).send({ sectionId: general, ...body });
    expect(outcome(res)).toMatchObject({ status: 201 });
    return res.body;
  }

  async function get(id: string, key = editor, format?: string): Promise<Response> {
    return t.http.get(`/v1/articles/${id}`).query(format ? { format } : {}).set(bearer(key));
  }

  async function read(id: string, key = editor, format?: string): Promise<Article> {
    const res = await get(id, key, format);
    expect(outcome(res)).toMatchObject({ status: 200 });
    return res.body;
  }

  async function patch(id: string, body: Record<string, unknown>, status = 200, key = editor): Promise<Article> {
    const res = await t.http.patch(`/v1/articles/${id}`).set(bearer(key)).send(body);
    expect(outcome(res)).toMatchObject({ status });
    return res.body;
  }

  async function action(id: string, verb: 'publish' | 'unpublish' | 'restore' | 'move', status = 200, key = editor, body?: Record<string, unknown>): Promise<Response> {
    const request = t.http.post(`/v1/articles/${id}/${verb}`).set(bearer(key));
    const res = await (body ? request.send(body) : request);
    expect(outcome(res)).toMatchObject({ status });
    return res;
  }

  async function trash(id: string, status = 200, key = editor): Promise<Response> {
    const res = await t.http.delete(`/v1/articles/${id}`).set(bearer(key));
    expect(outcome(res)).toMatchObject({ status });
    return res;
  }

  async function draft(id: string, status = 200, key = editor, format?: string): Promise<Response> {
    const res = await t.http.get(`/v1/articles/${id}/draft`).query(format ? { format } : {}).set(bearer(key));
    expect(outcome(res)).toMatchObject({ status });
    return res;
  }

  async function discard(id: string, status = 200, key = editor): Promise<Response> {
    const res = await t.http.delete(`/v1/articles/${id}/draft`).set(bearer(key));
    expect(outcome(res)).toMatchObject({ status });
    return res;
  }

  /** Every article of a cursor list (all pages), with the same query on each page. */
  function listAll(query: Record<string, string>, key = editor): Promise<Article[]> {
    return allItems<Article>(t, '/v1/articles', query, key);
  }

  async function section(name: string): Promise<string> {
    return (await t.http.post('/v1/sections').set(bearer(editor)).send({ name }).expect(201)).body.id;
  }

  async function collection(title: string): Promise<string> {
    return (await t.http.post('/v1/collections').set(bearer(editor)).send({ title }).expect(201)).body.id;
  }

  beforeAll(async () => {
    t = await startTestApp({ env: NO_LIMITS });
    reader = await t.key(['content:read']);
    writer = await t.key(['content:write']);
    publishOnly = await t.key(['content:publish']);
    editor = await t.key(['content:write', 'content:publish']);
    legacy = await t.key(null);
    db = new pg.Client({ connectionString: t.databaseUrl! });
    await db.connect();
    general = await defaultSectionId(t, reader);
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  describe('POST /v1/articles', () => {
    it('creates an open draft: 201, draft_id drf_…, status draft, not live, generated slug, contentHtml by default', async () => {
      const res = await t.http.post('/v1/articles').set(bearer(writer)).send({ title: 'Reset your password', sectionId: general, markdown: 'Hello **world**' });
      expect(outcome(res)).toMatchObject({ status: 201 });
      expect(Object.keys(res.body).sort()).toEqual([...ARTICLE_KEYS, 'draft_id'].sort());
      expect(res.body).toEqual({
        id: expect.stringMatching(ARTICLE_ID),
        title: 'Reset your password',
        slug: 'reset-your-password',
        contentHtml: expect.stringContaining('<strong>world</strong>'),
        url: null,
        sectionId: general,
        collectionId: null,
        status: 'draft',
        publishedAt: null,
        keywords: null,
        metaDescription: null,
        ogImage: null,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
        draft_id: expect.stringMatching(DRAFT_ID),
      });
      expect(res.body.updatedAt).toBe(res.body.createdAt);
      expect(res.headers['etag']).toEqual(expect.stringMatching(/^"[^"]+"$/));

      const [article] = await rows('SELECT status, slug, custom_slug, latest_version, live_revision_id, current_revision_id FROM articles WHERE id = $1', [res.body.id]);
      const revisions = await rows<{ id: string; version: number }>('SELECT id, version FROM article_revisions WHERE article_id = $1', [res.body.id]);
      const drafts = await rows('SELECT id, revision_id, base_revision_id FROM article_drafts WHERE article_id = $1', [res.body.id]);
      expect(revisions).toEqual([{ id: expect.stringMatching(REVISION_ID), version: 1 }]);
      expect(article).toEqual({
        status: 'draft',
        slug: 'reset-your-password',
        custom_slug: false,
        latest_version: 1,
        live_revision_id: null,
        current_revision_id: revisions[0]!.id,
      });
      expect(drafts).toEqual([{ id: res.body.draft_id, revision_id: revisions[0]!.id, base_revision_id: null }]);
      // What GET shows is what POST answered.
      const { draft_id: _draftId, ...article2 } = res.body as Article;
      expect(await read(res.body.id)).toEqual(article2);
    });

    it('a second and a third article with the same title get the slug with -2 and -3', async () => {
      const first = await create({ title: 'Billing basics' });
      const second = await create({ title: 'Billing basics' });
      const third = await create({ title: 'Billing  Basics!' });
      expect([first.slug, second.slug, third.slug]).toEqual(['billing-basics', 'billing-basics-2', 'billing-basics-3']);
    });

    it('concurrent creates with the same title (no slug given) all succeed, each with its own slug', async () => {
      const responses = await Promise.all(
        [1, 2, 3, 4, 5].map(() => t.http.post('/v1/articles').set(bearer(editor)).send({ title: 'Raced title', sectionId: general })),
      );
      expect(responses.map(outcome)).toEqual(responses.map(() => expect.objectContaining({ status: 201 })));
      expect(responses.map((r) => r.body.slug as string).sort()).toEqual(['raced-title', 'raced-title-2', 'raced-title-3', 'raced-title-4', 'raced-title-5']);
    });

    it('concurrent creates with the same title in different sections, and a rename to that title, all get their own slug', async () => {
      const sections = [general, await section('Slug race A'), await section('Slug race B'), await section('Slug race C')];
      const renamed = await create({ title: uniqueTitle('Rename racer') });
      const responses = await Promise.all([
        ...sections.map((sectionId) => t.http.post('/v1/articles').set(bearer(editor)).send({ title: 'Cross section race', sectionId })),
        t.http.patch(`/v1/articles/${renamed.id}`).set(bearer(editor)).send({ title: 'Cross section race' }),
      ]);
      expect(responses.map(outcome)).toEqual([201, 201, 201, 201, 200].map((status) => expect.objectContaining({ status })));
      expect(responses.map((r) => r.body.slug as string).sort()).toEqual([
        'cross-section-race',
        'cross-section-race-2',
        'cross-section-race-3',
        'cross-section-race-4',
        'cross-section-race-5',
      ]);
    });

    it('without a body: empty content', async () => {
      const created = await create({ title: uniqueTitle('Empty') });
      expect((await read(created.id, editor, 'markdown')).contentMarkdown!.trim()).toBe('');
      expect(created.contentHtml).toEqual(expect.any(String));
    });

    it('publish: true (legacy) → status published, draft_id null, url, publishedAt; readers see it; no open draft', async () => {
      const res = await t.http.post('/v1/articles').set(bearer(editor)).send({ title: 'Legacy published', sectionId: general, markdown: 'Live now', publish: true });
      expect(outcome(res)).toMatchObject({ status: 201 });
      expect(Object.keys(res.body).sort()).toEqual([...ARTICLE_KEYS, 'draft_id'].sort());
      expect(res.body).toMatchObject({
        status: 'published',
        draft_id: null,
        slug: 'legacy-published',
        url: 'http://help.test/articles/legacy-published',
        publishedAt: expect.stringMatching(ISO_MS),
        contentHtml: expect.stringContaining('Live now'),
      });
      expect(await versions(res.body.id)).toEqual([1]);
      expect(await rows('SELECT id FROM article_drafts WHERE article_id = $1', [res.body.id])).toEqual([]);
      const [row] = await rows<{ live: string; current: string }>('SELECT live_revision_id AS live, current_revision_id AS current FROM articles WHERE id = $1', [res.body.id]);
      expect(row!.live).toEqual(expect.stringMatching(REVISION_ID));
      expect(row!.current).toBe(row!.live);
      expect(await read(res.body.id, reader)).toMatchObject({ status: 'published', title: 'Legacy published' });
    });

    it('publish: true with a legacy (null-scope) key is allowed', async () => {
      expect(await create({ title: uniqueTitle('Legacy key'), publish: true }, legacy)).toMatchObject({ status: 'published', draft_id: null });
    });

    it('publish: false is the default draft creation', async () => {
      expect(await create({ title: uniqueTitle('Explicit false'), publish: false }, writer)).toMatchObject({ status: 'draft', draft_id: expect.stringMatching(DRAFT_ID) });
    });

    it('a content:write-only key with publish: true → 403 insufficient_scope naming content:publish; nothing created', async () => {
      const before = await snapshot();
      const res = await t.http.post('/v1/articles').set(bearer(writer)).send({ title: 'Not allowed to publish', sectionId: general, publish: true });
      expect(outcome(res)).toEqual({ status: 403, body: errorBody('insufficient_scope', expect.stringContaining('content:publish')) });
      expect(await snapshot()).toEqual(before);
    });

    it('a content:read or content:publish-only key cannot create (403 content:write)', async () => {
      for (const key of [reader, publishOnly]) {
        const res = await t.http.post('/v1/articles').set(bearer(key)).send({ title: 'No', sectionId: general });
        expect(outcome(res)).toEqual({ status: 403, body: errorBody('insufficient_scope', expect.stringContaining('content:write')) });
      }
    });

    it('content and markdown together → 400 invalid_request; nothing created', async () => {
      const before = await snapshot();
      const res = await t.http
        .post('/v1/articles')
        .set(bearer(editor))
        .send({ title: 'Both', sectionId: general, markdown: 'x', content: { type: 'doc', content: [{ type: 'paragraph' }] } });
      expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request', error: expect.any(String) } });
      expect(await snapshot()).toEqual(before);
    });

    describe('invalid ProseMirror JSON → 400 invalid_request naming the reason; nothing created', () => {
      const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
      it.each([
        ['an unknown node type', { type: 'doc', content: [{ type: 'bogus_node', content: [paragraph('x')] }] }, 'bogus_node'],
        ['an unknown mark', { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'x', marks: [{ type: 'blink' }] }] }] }, 'blink'],
        ['a callout variant out of the set', { type: 'doc', content: [{ type: 'callout', attrs: { variant: 'purple' }, content: [paragraph('x')] }] }, 'variant'],
        ['a heading level of 7', { type: 'doc', content: [{ type: 'heading', attrs: { level: 7 }, content: [{ type: 'text', text: 'x' }] }] }, 'level'],
        ['a heading level that is a string', { type: 'doc', content: [{ type: 'heading', attrs: { level: '2' }, content: [{ type: 'text', text: 'x' }] }] }, 'level'],
      ])('%s', async (_label, content, reason) => {
        const before = await snapshot();
        const res = await t.http.post('/v1/articles').set(bearer(editor)).send({ title: 'Bad JSON', sectionId: general, content });
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request', error: expect.any(String) } });
        expect(JSON.stringify(res.body)).toContain(reason);
        expect(await snapshot()).toEqual(before);
      });

      it.each([
        ['a string', 'just text'],
        ['a document with no type', { content: [] }],
        ['a paragraph at the top', { type: 'paragraph', content: [{ type: 'text', text: 'x' }] }],
        ['a text node without text', { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text' }] }] }],
        ['a list item outside a list', { type: 'doc', content: [{ type: 'list_item', content: [paragraph('x')] }] }],
        ['null', null],
      ])('%s', async (_label, content) => {
        const before = await snapshot();
        const res = await t.http.post('/v1/articles').set(bearer(editor)).send({ title: 'Bad JSON', sectionId: general, content });
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request', error: expect.any(String) } });
        expect(await snapshot()).toEqual(before);
      });
    });

    it('an unknown sectionId or collectionId → 400 invalid_request naming the field; nothing created', async () => {
      const before = await snapshot();
      const noSection = await t.http.post('/v1/articles').set(bearer(editor)).send({ title: 'Lost', sectionId: UNKNOWN_SECTION });
      expect(outcome(noSection)).toMatchObject({ status: 400, body: { code: 'invalid_request', details: [{ field: 'sectionId', message: expect.any(String) }] } });
      const noCollection = await t.http.post('/v1/articles').set(bearer(editor)).send({ title: 'Lost', sectionId: general, collectionId: UNKNOWN_COLLECTION });
      expect(outcome(noCollection)).toMatchObject({ status: 400, body: { code: 'invalid_request', details: [{ field: 'collectionId', message: expect.any(String) }] } });
      expect(await snapshot()).toEqual(before);
    });

    it.each([
      ['no title', { sectionId: 'GENERAL' }],
      ['an empty title', { title: '', sectionId: 'GENERAL' }],
      ['no sectionId', { title: 'No section' }],
      ['an unknown field', { title: 'Extra', sectionId: 'GENERAL', extra: true }],
      ['publish not a boolean', { title: 'Publish?', sectionId: 'GENERAL', publish: 'yes' }],
      ['markdown not a string', { title: 'Markdown?', sectionId: 'GENERAL', markdown: 42 }],
    ])('%s → 400 invalid_request', async (_label, body) => {
      const before = await snapshot();
      const filled = JSON.parse(JSON.stringify(body).replace('GENERAL', general)) as Record<string, unknown>;
      const res = await t.http.post('/v1/articles').set(bearer(editor)).send(filled);
      expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      expect(await snapshot()).toEqual(before);
    });

    it('in a collection: collectionId stored and returned', async () => {
      const col = await collection('Created into');
      const created = await create({ title: uniqueTitle('In collection'), collectionId: col });
      expect(created.collectionId).toBe(col);
      expect((await read(created.id)).collectionId).toBe(col);
    });

    it('a custom slug is used and turns on custom slug mode: a later title PATCH keeps it', async () => {
      const created = await create({ title: 'Custom slug article', slug: 'my-own-slug' });
      expect(created.slug).toBe('my-own-slug');
      expect((await rows('SELECT custom_slug FROM articles WHERE id = $1', [created.id]))[0]).toEqual({ custom_slug: true });
      const renamed = await patch(created.id, { title: 'Entirely different title' });
      expect(renamed.slug).toBe('my-own-slug');
      expect((await read(created.id)).slug).toBe('my-own-slug');
    });

    it('without custom slug mode a title PATCH regenerates the slug from the new title', async () => {
      const created = await create({ title: 'Generated slug article' });
      expect(created.slug).toBe('generated-slug-article');
      const renamed = await patch(created.id, { title: 'Renamed slug article' });
      expect(renamed.slug).toBe('renamed-slug-article');
      expect((await read(created.id)).slug).toBe('renamed-slug-article');
      // The old slug is free again.
      expect((await create({ title: 'Generated slug article' })).slug).toBe('generated-slug-article');
    });

    it('a PATCH with a slug turns on custom slug mode', async () => {
      const created = await create({ title: 'Slug later' });
      expect((await patch(created.id, { slug: 'chosen-later' })).slug).toBe('chosen-later');
      expect((await patch(created.id, { title: 'Slug later renamed' })).slug).toBe('chosen-later');
    });

    it('a generated slug skips slugs taken by custom ones', async () => {
      await create({ title: uniqueTitle('Owner'), slug: 'shipping-faq' });
      expect((await create({ title: 'Shipping FAQ' })).slug).toBe('shipping-faq-2');
    });

    it('a taken slug → 409 slug_taken on create and on PATCH; nothing written', async () => {
      const owner = await create({ title: uniqueTitle('Slug owner'), slug: 'taken-slug' });
      const other = await create({ title: uniqueTitle('Slug wanter') });
      const before = await snapshot();
      const created = await t.http.post('/v1/articles').set(bearer(editor)).send({ title: 'Wants taken', sectionId: general, slug: 'taken-slug' });
      expect(outcome(created)).toEqual({ status: 409, body: errorBody('slug_taken') });
      const patched = await t.http.patch(`/v1/articles/${other.id}`).set(bearer(editor)).send({ slug: 'taken-slug', title: 'Also a new title' });
      expect(outcome(patched)).toEqual({ status: 409, body: errorBody('slug_taken') });
      expect(await snapshot()).toEqual(before);
      // An article keeping its own slug is not a conflict.
      expect((await patch(owner.id, { slug: 'taken-slug' })).slug).toBe('taken-slug');
    });

    it.each(['Upper-Case', 'with space', 'trailing-', '-leading', 'double--dash', 'ümlaut', 'under_score', 'a/b', ''])(
      'a malformed slug %p → 400 invalid_request; nothing created',
      async (slug) => {
        const before = await snapshot();
        const res = await t.http.post('/v1/articles').set(bearer(editor)).send({ title: 'Bad slug', sectionId: general, slug });
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request', details: [expect.objectContaining({ field: 'slug' })] } });
        expect(await snapshot()).toEqual(before);
      },
    );

    it('SEO fields are stored and returned', async () => {
      const seo = { keywords: 'password, reset, login', metaDescription: 'How to reset your password', ogImage: 'https://cdn.example.com/og.png' };
      const created = await create({ title: uniqueTitle('SEO'), ...seo });
      expect(created).toMatchObject(seo);
      expect(await read(created.id)).toMatchObject(seo);
      expect((await rows('SELECT keywords, meta_description, og_image FROM articles WHERE id = $1', [created.id]))[0]).toEqual({
        keywords: seo.keywords,
        meta_description: seo.metaDescription,
        og_image: seo.ogImage,
      });
    });
  });

  describe('GET /v1/articles/:id', () => {
    const markdown = '## Steps\n\nOpen the **settings** page.\n\n- one\n- two\n';

    it('format html (default), markdown, json: each returns only its content field', async () => {
      const created = await create({ title: uniqueTitle('Formats'), markdown });
      const html = await read(created.id);
      expect(Object.keys(html).sort()).toEqual(ARTICLE_KEYS);
      expect(html.contentHtml).toContain('<h2>Steps</h2>');
      expect(html.contentHtml).toContain('<strong>settings</strong>');
      expect(await read(created.id, editor, 'html')).toEqual(html);

      const md = await read(created.id, editor, 'markdown');
      expect(Object.keys(md).sort()).toEqual([...ARTICLE_KEYS.filter((k) => k !== 'contentHtml'), 'contentMarkdown'].sort());
      expect(md.contentMarkdown).toContain('## Steps');
      expect(md.contentMarkdown).toContain('**settings**');

      const json = await read(created.id, editor, 'json');
      expect(Object.keys(json).sort()).toEqual([...ARTICLE_KEYS.filter((k) => k !== 'contentHtml'), 'contentJson'].sort());
      expect(json.contentJson).toMatchObject({ type: 'doc' });
      expect(JSON.stringify(json.contentJson)).toContain('"heading"');
      // The stored document, as stored.
      const [row] = await rows<{ content_json: unknown }>('SELECT r.content_json FROM article_revisions r JOIN articles a ON a.current_revision_id = r.id WHERE a.id = $1', [created.id]);
      expect(json.contentJson).toEqual(row!.content_json);
    });

    it('format=json returns the document given on create, lossless (custom nodes, marks and attributes included)', async () => {
      const doc = {
        type: 'doc',
        content: [
          { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Before you start' }] },
          {
            type: 'paragraph',
            content: [
              { type: 'text', text: 'Read ' },
              { type: 'text', text: 'the guide', marks: [{ type: 'link', attrs: { href: 'https://example.com/guide', title: null } }, { type: 'strong' }] },
              { type: 'text', text: ' and ' },
              { type: 'text', text: 'code', marks: [{ type: 'code' }] },
            ],
          },
          { type: 'callout', attrs: { variant: 'warning' }, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Back up first.' }] }] },
          {
            type: 'steps',
            content: [
              { type: 'step', attrs: { title: 'Open settings' }, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Click the gear.' }] }] },
              { type: 'step', attrs: { title: 'Reset' }, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Press reset.' }] }] },
            ],
          },
          {
            type: 'cards',
            content: [{ type: 'card', attrs: { title: 'Billing', href: 'https://example.com/billing' }, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Invoices' }] }] }],
          },
          { type: 'code_block', attrs: { language: 'bash' }, content: [{ type: 'text', text: 'npm start' }] },
          { type: 'horizontal_rule' },
          { type: 'bullet_list', attrs: { tight: true }, content: [{ type: 'list_item', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'item' }] }] }] },
        ],
      };
      const created = await create({ title: uniqueTitle('Lossless'), content: doc });
      expect((await read(created.id, editor, 'json')).contentJson).toEqual(doc);
      const html = (await read(created.id)).contentHtml!;
      expect(html).toContain('callout-warning');
      expect(html).toContain('Open settings');
      const md = (await read(created.id, editor, 'markdown')).contentMarkdown!;
      expect(md).toContain(':::callout{variant="warning"}');
      expect(md).toContain('::::steps');
    });

    it('a bad format → 400 invalid_request', async () => {
      const created = await create({ title: uniqueTitle('Bad format') });
      for (const format of ['pdf', 'HTML', '']) {
        const res = await t.http.get(`/v1/articles/${created.id}?format=${format}`).set(bearer(editor));
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      }
    });

    it('an unknown ID → 404 not_found', async () => {
      const res = await get(UNKNOWN_ARTICLE);
      expect(outcome(res)).toEqual({ status: 404, body: errorBody('not_found') });
    });

    it('a content:read-only key gets 404 for a draft article and 200 for a published one; writers and publishers see drafts', async () => {
      const drafted = await create({ title: uniqueTitle('Hidden draft') });
      const published = await create({ title: uniqueTitle('Visible'), publish: true });
      expect(outcome(await get(drafted.id, reader))).toEqual({ status: 404, body: errorBody('not_found') });
      expect((await read(published.id, reader)).status).toBe('published');
      expect((await read(drafted.id, writer)).status).toBe('draft');
      expect((await read(drafted.id, publishOnly)).status).toBe('draft');
    });

    it('ETag: present, equal to the one the write answered, and different after every write', async () => {
      const tags: string[] = [];
      const created = await t.http.post('/v1/articles').set(bearer(editor)).send({ title: uniqueTitle('Tagged'), sectionId: general, markdown: 'v1' }).expect(201);
      const id = created.body.id as string;
      let last = created.body as Article;
      const current = async (): Promise<string> => {
        const res = await get(id);
        expect(res.status).toBe(200);
        expect(res.headers['etag']).toEqual(expect.stringMatching(/^"[^"]+"$/));
        last = res.body;
        return res.headers['etag'] as string;
      };
      expect(await current()).toBe(created.headers['etag']);
      tags.push(await current());
      const col = await collection('ETag collection');

      const writes: Array<[string, () => Promise<unknown>]> = [
        ['PATCH markdown', () => patch(id, { markdown: 'v2' })],
        ['PATCH title', () => patch(id, { title: uniqueTitle('Tagged renamed') })],
        ['PATCH SEO', () => patch(id, { keywords: 'etag' })],
        ['publish', () => action(id, 'publish')],
        ['PATCH on published', () => patch(id, { markdown: 'v3' })],
        ['discard draft', () => discard(id)],
        ['move', () => action(id, 'move', 200, editor, { collection_id: col })],
        ['unpublish', () => action(id, 'unpublish')],
        ['trash', () => trash(id)],
        ['restore', () => action(id, 'restore')],
      ];
      for (const [label, write] of writes) {
        await clockPast(last.updatedAt);
        const answer = await write();
        const tag = await current();
        expect({ label, repeated: tags.includes(tag) }).toEqual({ label, repeated: false });
        tags.push(tag);
        if (label.startsWith('PATCH')) expect((answer as { id: string }).id).toBe(id);
      }
      // A read is not a write.
      expect(await current()).toBe(tags.at(-1));
    });

    it('the PATCH response carries the ETag of the new state', async () => {
      const created = await create({ title: uniqueTitle('Patch tag') });
      const res = await t.http.patch(`/v1/articles/${created.id}`).set(bearer(editor)).send({ markdown: 'changed' }).expect(200);
      expect(res.headers['etag']).toBe((await get(created.id)).headers['etag']);
    });
  });

  describe('GET /v1/articles/:id/draft', () => {
    it('returns the open draft: id drf_, articleId, title, content in the asked format, baseRevisionId, updatedAt', async () => {
      const created = await create({ title: uniqueTitle('Draft view'), markdown: 'Draft *body*' }, writer);
      const html = (await draft(created.id, 200, writer)).body;
      expect(html).toEqual({
        id: created.draft_id,
        articleId: created.id,
        title: created.title,
        contentHtml: expect.stringContaining('<em>body</em>'),
        baseRevisionId: null,
        updatedAt: expect.stringMatching(ISO_MS),
      });
      const md = (await draft(created.id, 200, writer, 'markdown')).body;
      expect(Object.keys(md).sort()).toEqual(['articleId', 'baseRevisionId', 'contentMarkdown', 'id', 'title', 'updatedAt']);
      expect(md.contentMarkdown).toContain('*body*');
      const json = (await draft(created.id, 200, writer, 'json')).body;
      expect(Object.keys(json).sort()).toEqual(['articleId', 'baseRevisionId', 'contentJson', 'id', 'title', 'updatedAt']);
      expect(json.contentJson).toMatchObject({ type: 'doc' });
      const bad = await t.http.get(`/v1/articles/${created.id}/draft?format=doc`).set(bearer(writer));
      expect(outcome(bad)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    });

    it('needs content:write: content:read and content:publish-only keys → 403', async () => {
      const created = await create({ title: uniqueTitle('Draft scope') });
      for (const key of [reader, publishOnly]) {
        const res = await draft(created.id, 403, key);
        expect(res.body).toEqual(errorBody('insufficient_scope', expect.stringContaining('content:write')));
      }
    });

    it('404 when there is no open draft, or no such article', async () => {
      const published = await create({ title: uniqueTitle('No draft'), publish: true });
      expect((await draft(published.id, 404)).body).toEqual(errorBody('not_found'));
      expect((await draft(UNKNOWN_ARTICLE, 404)).body.code).toBe('not_found');
    });
  });

  describe('link targets are checked when a body is written', () => {
    const link = (href: string) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Click', marks: [{ type: 'link', attrs: { href, title: null } }] }] }] });
    const card = (href: string) => ({
      type: 'doc',
      content: [{ type: 'cards', content: [{ type: 'card', attrs: { title: 'Billing', href }, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Invoices' }] }] }] }],
    });

    it.each(['javascript:alert(1)', ' JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox'])(
      '%j in a JSON link, a JSON card or a Markdown card is 400 naming the field; nothing is stored',
      async (href) => {
        const before = await rows<{ n: number }>('SELECT count(*)::int AS n FROM articles');
        for (const [field, body] of [
          ['content', { content: link(href) }],
          ['content', { content: card(href) }],
          ['markdown', { markdown: `::::cards\n:::card{title="Billing" href=${JSON.stringify(href)}}\nInvoices\n:::\n::::` }],
        ] as const) {
          const res = await t.http.post('/v1/articles').set(bearer(editor)).send({ sectionId: general, title: uniqueTitle('Unsafe link'), ...body });
          expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
          expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
        }
        expect(await rows<{ n: number }>('SELECT count(*)::int AS n FROM articles')).toEqual(before);
        const article = await create({ title: uniqueTitle('Safe first'), markdown: 'x' });
        const patched = await t.http.patch(`/v1/articles/${article.id}`).set(bearer(editor)).send({ content: link(href) });
        expect(outcome(patched)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      },
    );

    it('http(s), mailto and relative links are kept as written', async () => {
      for (const href of ['https://example.com/a', 'http://example.com', 'mailto:help@example.com', '/articles/other', '#section', '../up']) {
        const created = await create({ title: uniqueTitle('Safe link'), content: card(href) });
        expect(JSON.stringify(created)).toContain(href);
      }
    });
  });

  describe('PATCH /v1/articles/:id', () => {
    it('slug and SEO fields of a published article are live at once: changing them needs content:publish (403 for content:write alone, nothing changed)', async () => {
      const created = await create({ title: uniqueTitle('Live SEO'), markdown: 'Body', keywords: 'a', metaDescription: 'm', ogImage: 'https://cdn.example.com/a.png', publish: true });
      const before = await read(created.id, reader);
      for (const change of [{ slug: `moved-${created.id.slice(-6).toLowerCase()}` }, { keywords: 'b' }, { metaDescription: 'n' }, { ogImage: 'https://cdn.example.com/b.png' }, { ogImage: null }]) {
        const res = await t.http.patch(`/v1/articles/${created.id}`).set(bearer(writer)).send(change);
        expect(outcome(res)).toMatchObject({ status: 403, body: { code: 'insufficient_scope', error: expect.stringContaining('content:publish') } });
      }
      expect(await read(created.id, reader)).toEqual(before);
      // The same values, or the draft's title and body, are fine with content:write.
      await patch(created.id, { keywords: 'a', metaDescription: 'm', slug: created.slug }, 200, writer);
      await patch(created.id, { title: 'A draft title' }, 200, writer);
      // With content:publish they go live at once.
      expect(await patch(created.id, { keywords: 'b' }, 200, editor)).toMatchObject({ keywords: 'b' });
      // On an article that is not live, content:write may change them.
      const draftOnly = await create({ title: uniqueTitle('Not live SEO'), markdown: 'Body' });
      expect(await patch(draftOnly.id, { keywords: 'x', ogImage: 'https://cdn.example.com/x.png' }, 200, writer)).toMatchObject({ keywords: 'x' });
    });

    it.each(['javascript:alert(1)', 'data:image/png;base64,AAAA', '/relative.png', 'ftp://example.com/a.png', 'https://user:pw@example.com/a.png', 'not a url'])(
      'ogImage %j is 400 naming ogImage, on create and on PATCH',
      async (ogImage) => {
        const created = await t.http.post('/v1/articles').set(bearer(editor)).send({ sectionId: general, title: uniqueTitle('Bad og'), markdown: 'x', ogImage });
        expect(outcome(created)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
        expect(JSON.stringify(created.body)).toContain('ogImage');
        const article = await create({ title: uniqueTitle('Good og'), markdown: 'x' });
        const patched = await t.http.patch(`/v1/articles/${article.id}`).set(bearer(editor)).send({ ogImage });
        expect(outcome(patched)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      },
    );

    it('on a published article writes the open draft: GET still shows the live content, GET /draft the new one', async () => {
      const created = await create({ title: 'Live title', markdown: 'Live body', slug: 'live-title-patch', publish: true });
      const [live] = await rows<{ id: string }>('SELECT live_revision_id AS id FROM articles WHERE id = $1', [created.id]);
      const patched = await patch(created.id, { title: 'Draft title', markdown: 'Draft body' }, 200, writer);
      expect(Object.keys(patched).sort()).toEqual([...ARTICLE_KEYS, 'draft_id'].sort());
      expect(patched).toMatchObject({ id: created.id, status: 'published', draft_id: expect.stringMatching(DRAFT_ID), title: 'Live title' });
      expect(patched.contentHtml).toContain('Live body');

      const shown = await read(created.id, reader);
      expect(shown).toMatchObject({ title: 'Live title', status: 'published' });
      expect(shown.contentHtml).toContain('Live body');
      expect(shown.contentHtml).not.toContain('Draft body');

      const open = (await draft(created.id, 200, writer)).body;
      expect(open).toMatchObject({ id: patched.draft_id, title: 'Draft title', baseRevisionId: live!.id });
      expect(open.contentHtml).toContain('Draft body');
      expect(await versions(created.id)).toEqual([1, 2]);

      // A second PATCH writes the same draft.
      const again = await patch(created.id, { markdown: 'Draft body, second pass' }, 200, writer);
      expect(again.draft_id).toBe(patched.draft_id);
      expect((await draft(created.id)).body).toMatchObject({ id: patched.draft_id, title: 'Draft title', contentHtml: expect.stringContaining('second pass') });
      expect(await versions(created.id)).toEqual([1, 2, 3]);
      expect((await read(created.id, reader)).contentHtml).toContain('Live body');
    });

    it('on a draft article the change shows at once, in the same open draft', async () => {
      const created = await create({ title: uniqueTitle('Draft patch'), markdown: 'first' });
      const patched = await patch(created.id, { markdown: 'second' });
      expect(patched.draft_id).toBe(created.draft_id);
      expect(patched.contentHtml).toContain('second');
      expect((await read(created.id)).contentHtml).toContain('second');
    });

    it('title only: a new revision with the new title and the same body', async () => {
      const created = await create({ title: uniqueTitle('Title only'), markdown: 'Unchanged body' });
      const before = (await read(created.id, editor, 'json')).contentJson;
      const title = uniqueTitle('Title only renamed');
      const patched = await patch(created.id, { title });
      expect(patched.title).toBe(title);
      expect((await read(created.id, editor, 'json')).contentJson).toEqual(before);
      expect(await versions(created.id)).toEqual([1, 2]);
    });

    it('the same title and no body: no new revision', async () => {
      const created = await create({ title: uniqueTitle('Same title') });
      await patch(created.id, { title: created.title });
      expect(await versions(created.id)).toEqual([1]);
    });

    it('SEO only: the fields change, no new revision; null clears them', async () => {
      const created = await create({ title: uniqueTitle('SEO patch'), keywords: 'old', metaDescription: 'old description', publish: true });
      const patched = await patch(created.id, { keywords: 'new', ogImage: 'https://cdn.example.com/new.png' });
      expect(patched).toMatchObject({ keywords: 'new', metaDescription: 'old description', ogImage: 'https://cdn.example.com/new.png', status: 'published' });
      expect(await read(created.id, reader)).toMatchObject({ keywords: 'new', metaDescription: 'old description', ogImage: 'https://cdn.example.com/new.png' });
      expect(await versions(created.id)).toEqual([1]);
      const cleared = await patch(created.id, { keywords: null, metaDescription: null });
      expect(cleared).toMatchObject({ keywords: null, metaDescription: null, ogImage: 'https://cdn.example.com/new.png' });
      expect((await rows('SELECT keywords, meta_description FROM articles WHERE id = $1', [created.id]))[0]).toEqual({ keywords: null, meta_description: null });
    });

    it('If-Match with the current ETag → 200; a stale one → 412 precondition_failed and nothing written', async () => {
      const created = await create({ title: uniqueTitle('Guarded'), markdown: 'one' });
      const first = (await get(created.id)).headers['etag'] as string;
      const ok = await t.http.patch(`/v1/articles/${created.id}`).set(bearer(editor)).set('If-Match', first).send({ markdown: 'two' });
      expect(outcome(ok)).toMatchObject({ status: 200 });
      const before = await snapshot();
      const stale = await t.http.patch(`/v1/articles/${created.id}`).set(bearer(editor)).set('If-Match', first).send({ markdown: 'three', keywords: 'x' });
      expect(outcome(stale)).toEqual({ status: 412, body: errorBody('precondition_failed') });
      expect(await snapshot()).toEqual(before);
      // A stale tag also guards SEO-only changes.
      const seo = await t.http.patch(`/v1/articles/${created.id}`).set(bearer(editor)).set('If-Match', first).send({ keywords: 'x' });
      expect(seo.status).toBe(412);
      expect(await snapshot()).toEqual(before);
      // The current tag, also in a list, or *, passes; the same tag marked weak never does (strong comparison, RFC 9110).
      const current = ok.headers['etag'] as string;
      expect(current).toBe((await get(created.id)).headers['etag']);
      expect((await t.http.patch(`/v1/articles/${created.id}`).set(bearer(editor)).set('If-Match', `"nope", ${current}`).send({ keywords: 'a' })).status).toBe(200);
      const next = (await get(created.id)).headers['etag'] as string;
      const weak = await t.http.patch(`/v1/articles/${created.id}`).set(bearer(editor)).set('If-Match', `W/${next}`).send({ keywords: 'b' });
      expect(outcome(weak)).toEqual({ status: 412, body: errorBody('precondition_failed') });
      expect((await t.http.patch(`/v1/articles/${created.id}`).set(bearer(editor)).set('If-Match', next).send({ keywords: 'b' })).status).toBe(200);
      expect((await t.http.patch(`/v1/articles/${created.id}`).set(bearer(editor)).set('If-Match', '*').send({ keywords: 'c' })).status).toBe(200);
    });

    it('every write answering with the article carries its new ETag, which the next If-Match can use', async () => {
      const created = await create({ title: uniqueTitle('Tagged'), markdown: 'one' });
      const writes: Array<() => Promise<{ status: number; headers: Record<string, string> }>> = [
        () => t.http.post(`/v1/articles/${created.id}/publish`).set(bearer(legacy)),
        () => t.http.patch(`/v1/articles/${created.id}`).set(bearer(editor)).send({ markdown: 'two' }),
        () => t.http.delete(`/v1/articles/${created.id}/draft`).set(bearer(editor)),
        () => t.http.post(`/v1/articles/${created.id}/move`).set(bearer(editor)).send({ collection_id: null }),
        () => t.http.post(`/v1/articles/${created.id}/unpublish`).set(bearer(legacy)),
        () => t.http.delete(`/v1/articles/${created.id}`).set(bearer(legacy)),
        () => t.http.post(`/v1/articles/${created.id}/restore`).set(bearer(legacy)),
      ];
      for (const write of writes) {
        const res = await write();
        expect(res.status).toBe(200);
        expect(res.headers['etag']).toBe((await get(created.id)).headers['etag']);
      }
    });

    it.each([
      ['a body change', { markdown: 'concurrent body' }],
      ['a title change', { title: 'Concurrent title change' }],
      ['an SEO-only change', { keywords: 'concurrent' }],
    ])('two PATCHes sent at once with the same If-Match (%s): exactly one 200 and one 412', async (_label, body) => {
      const created = await create({ title: uniqueTitle('Raced'), markdown: 'start' });
      const res = await get(created.id);
      const tag = res.headers['etag'] as string;
      await clockPast(res.body.updatedAt);
      const versionsBefore = await versions(created.id);
      const responses = await Promise.all(
        [1, 2].map((n) => t.http.patch(`/v1/articles/${created.id}`).set(bearer(editor)).set('If-Match', tag).send('title' in body ? { title: `${body.title} ${n}` } : body)),
      );
      expect(responses.map((r) => r.status).sort()).toEqual([200, 412]);
      expect(responses.find((r) => r.status === 412)!.body.code).toBe('precondition_failed');
      const added = 'keywords' in body ? 0 : 1;
      expect((await versions(created.id)).length).toBe(versionsBefore.length + added);
    });

    it('publish: true publishes too (needs content:publish)', async () => {
      const created = await create({ title: uniqueTitle('Patch publish'), markdown: 'draft one' });
      const before = await snapshot();
      const denied = await t.http.patch(`/v1/articles/${created.id}`).set(bearer(writer)).send({ markdown: 'draft two', publish: true });
      expect(outcome(denied)).toEqual({ status: 403, body: errorBody('insufficient_scope', expect.stringContaining('content:publish')) });
      expect(await snapshot()).toEqual(before);

      const published = await patch(created.id, { markdown: 'draft two', publish: true });
      expect(published).toMatchObject({ status: 'published', draft_id: null, publishedAt: expect.stringMatching(ISO_MS), url: `http://help.test/articles/${created.slug}` });
      expect(published.contentHtml).toContain('draft two');
      expect((await read(created.id, reader)).contentHtml).toContain('draft two');
      expect(await versions(created.id)).toEqual([1, 2, 3]);
      await draft(created.id, 404);
    });

    it('of a trashed article → 409 invalid_state; nothing written', async () => {
      const created = await create({ title: uniqueTitle('Trashed patch') });
      await trash(created.id);
      const before = await snapshot();
      const res = await t.http.patch(`/v1/articles/${created.id}`).set(bearer(editor)).send({ markdown: 'edit' });
      expect(outcome(res)).toEqual({ status: 409, body: errorBody('invalid_state') });
      const seo = await t.http.patch(`/v1/articles/${created.id}`).set(bearer(editor)).send({ keywords: 'edit' });
      expect(seo.status).toBe(409);
      expect(await snapshot()).toEqual(before);
    });

    it('an unknown ID → 404; invalid bodies → 400; content:read → 403', async () => {
      expect((await t.http.patch(`/v1/articles/${UNKNOWN_ARTICLE}`).set(bearer(editor)).send({ title: 'x' })).status).toBe(404);
      const created = await create({ title: uniqueTitle('Patch validation') });
      const before = await snapshot();
      for (const body of [{ title: '' }, { content: { type: 'doc', content: [] }, markdown: 'x' }, { content: { type: 'doc', content: [{ type: 'nope' }] } }, { unknown: 1 }, { slug: 'Bad Slug' }]) {
        const res = await t.http.patch(`/v1/articles/${created.id}`).set(bearer(editor)).send(body);
        expect({ sent: body, ...outcome(res) }).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      }
      expect((await t.http.patch(`/v1/articles/${created.id}`).set(bearer(reader)).send({ title: 'x' })).status).toBe(403);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('POST /v1/articles/:id/publish', () => {
    it('makes the draft live: a new revision (version + 1), the draft closed, publishedAt and url set', async () => {
      const created = await create({ title: uniqueTitle('To publish'), markdown: 'Going live' });
      await clockPast(created.updatedAt);
      const res = await action(created.id, 'publish');
      expect(Object.keys(res.body).sort()).toEqual(ARTICLE_KEYS);
      expect(res.body).toMatchObject({
        id: created.id,
        status: 'published',
        publishedAt: expect.stringMatching(ISO_MS),
        url: `http://help.test/articles/${created.slug}`,
        contentHtml: expect.stringContaining('Going live'),
      });
      expect(res.body.updatedAt > created.updatedAt).toBe(true);
      expect(await versions(created.id)).toEqual([1, 2]);
      const [row] = await rows<{ live: string; current: string; latest: number }>(
        'SELECT a.live_revision_id AS live, a.current_revision_id AS current, a.latest_version AS latest FROM articles a WHERE a.id = $1',
        [created.id],
      );
      const [v2] = await rows<{ id: string }>('SELECT id FROM article_revisions WHERE article_id = $1 AND version = 2', [created.id]);
      expect(row).toEqual({ live: v2!.id, current: v2!.id, latest: 2 });
      expect(await rows('SELECT id FROM article_drafts WHERE article_id = $1', [created.id])).toEqual([]);
      await draft(created.id, 404);
      expect(await read(created.id, reader)).toMatchObject({ status: 'published' });
    });

    it('publishing again with nothing new is a no-op 200: no new revision, nothing changes', async () => {
      const created = await create({ title: uniqueTitle('Twice'), markdown: 'once' });
      const first = await action(created.id, 'publish');
      const before = await snapshot();
      const tag = (await get(created.id)).headers['etag'];
      await clockPast(first.body.updatedAt);
      const second = await action(created.id, 'publish');
      expect(second.body).toEqual(first.body);
      expect(await snapshot()).toEqual(before);
      expect((await get(created.id)).headers['etag']).toBe(tag);
    });

    it('after a PATCH on the live article, publishing makes the draft content live', async () => {
      const created = await create({ title: uniqueTitle('Republish'), markdown: 'old', publish: true });
      await patch(created.id, { markdown: 'new' });
      const res = await action(created.id, 'publish');
      expect(res.body.contentHtml).toContain('new');
      expect((await read(created.id, reader)).contentHtml).toContain('new');
      expect(await versions(created.id)).toEqual([1, 2, 3]);
    });

    it('concurrent publishes never make two revisions with one version number', async () => {
      const created = await create({ title: uniqueTitle('Concurrent publish'), markdown: 'v1' });
      await patch(created.id, { markdown: 'v2' });
      const responses = await Promise.all(Array.from({ length: 6 }, () => t.http.post(`/v1/articles/${created.id}/publish`).set(bearer(editor))));
      expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      for (const res of responses) expect(res.body.status).toBe('published');
      expect(await versions(created.id)).toEqual([1, 2, 3]);
      expect(await rows('SELECT version FROM article_revisions GROUP BY article_id, version HAVING COUNT(*) > 1')).toEqual([]);
      const listed = (await t.http.get(`/v1/articles/${created.id}/revisions`).set(bearer(editor)).expect(200)).body.results as Array<{ version: number }>;
      expect(listed.map((r) => r.version)).toEqual([3, 2, 1]);
    });

    it('concurrent PATCHes and publishes: versions stay unique and gap-free', async () => {
      const created = await create({ title: uniqueTitle('Mixed race'), markdown: 'start' });
      const requests = Array.from({ length: 8 }, (_, i) =>
        i % 2 === 0
          ? t.http.patch(`/v1/articles/${created.id}`).set(bearer(editor)).send({ markdown: `edit ${i}` })
          : t.http.post(`/v1/articles/${created.id}/publish`).set(bearer(editor)),
      );
      const responses = await Promise.all(requests);
      expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200));
      const all = await versions(created.id);
      expect(all).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
      expect((await rows<{ latest: number }>('SELECT latest_version AS latest FROM articles WHERE id = $1', [created.id]))[0]!.latest).toBe(all.length);
    });

    it('needs content:publish; unknown → 404; trashed → 409', async () => {
      const created = await create({ title: uniqueTitle('Publish scope') });
      const denied = await action(created.id, 'publish', 403, writer);
      expect(denied.body).toEqual(errorBody('insufficient_scope', expect.stringContaining('content:publish')));
      expect((await read(created.id)).status).toBe('draft');
      await action(UNKNOWN_ARTICLE, 'publish', 404);
      await trash(created.id);
      const before = await snapshot();
      expect((await action(created.id, 'publish', 409)).body.code).toBe('invalid_state');
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('POST /v1/articles/:id/unpublish', () => {
    it('status draft, readers get 404, the last live content becomes the open draft', async () => {
      const created = await create({ title: uniqueTitle('Unpublish me'), markdown: 'Was live', publish: true });
      const [live] = await rows<{ id: string }>('SELECT live_revision_id AS id FROM articles WHERE id = $1', [created.id]);
      const res = await action(created.id, 'unpublish');
      expect(Object.keys(res.body).sort()).toEqual(ARTICLE_KEYS);
      expect(res.body).toMatchObject({ id: created.id, status: 'draft', contentHtml: expect.stringContaining('Was live') });
      expect((await get(created.id, reader)).status).toBe(404);
      expect((await listAll({}, reader)).map((a) => a.id)).not.toContain(created.id);
      const open = (await draft(created.id)).body;
      expect(open).toMatchObject({ id: expect.stringMatching(DRAFT_ID), articleId: created.id, baseRevisionId: live!.id, title: created.title });
      expect(open.contentHtml).toContain('Was live');
      // It can be edited and published again.
      expect((await patch(created.id, { markdown: 'Back again' })).draft_id).toBe(open.id);
      await action(created.id, 'publish');
      expect((await read(created.id, reader)).contentHtml).toContain('Back again');
    });

    it('with an open draft: the article shows the draft, which stays open', async () => {
      const created = await create({ title: uniqueTitle('Unpublish with draft'), markdown: 'live', publish: true });
      const edited = await patch(created.id, { markdown: 'pending edit' });
      const res = await action(created.id, 'unpublish');
      expect(res.body.status).toBe('draft');
      expect((await draft(created.id)).body).toMatchObject({ id: edited.draft_id, contentHtml: expect.stringContaining('pending edit') });
    });

    it('unpublish, discard the draft, publish: the last live content is live again', async () => {
      const created = await create({ title: uniqueTitle('Round trip'), markdown: 'round trip body', publish: true });
      await action(created.id, 'unpublish');
      await discard(created.id);
      await draft(created.id, 404);
      const res = await action(created.id, 'publish');
      expect(res.body).toMatchObject({ status: 'published', contentHtml: expect.stringContaining('round trip body') });
      expect((await read(created.id, reader)).contentHtml).toContain('round trip body');
      expect(await versions(created.id)).toEqual([1, 2]);
    });

    it('of a draft → 409 invalid_state; needs content:publish', async () => {
      const created = await create({ title: uniqueTitle('Never live') });
      const before = await snapshot();
      expect((await action(created.id, 'unpublish', 409)).body).toEqual(errorBody('invalid_state'));
      expect(await snapshot()).toEqual(before);
      const published = await create({ title: uniqueTitle('Live, stays'), publish: true });
      expect((await action(published.id, 'unpublish', 403, writer)).body.code).toBe('insufficient_scope');
      expect((await read(published.id, reader)).status).toBe('published');
      await action(UNKNOWN_ARTICLE, 'unpublish', 404);
    });
  });

  describe('DELETE /v1/articles/:id (trash) and POST /v1/articles/:id/restore', () => {
    it('trash → {id, status: trashed}; gone from every list; readers get 404; writers still see it', async () => {
      const published = await create({ title: uniqueTitle('Trash live'), publish: true });
      const drafted = await create({ title: uniqueTitle('Trash draft') });
      for (const article of [published, drafted]) {
        const res = await trash(article.id);
        expect(res.body).toEqual({ id: article.id, status: 'trashed' });
      }
      const ids = [published.id, drafted.id];
      for (const query of [{}, { status: 'published' }, { status: 'draft' }, { status: 'all' }] as Array<Record<string, string>>) {
        const listed = (await listAll(query)).map((a) => a.id);
        for (const id of ids) expect({ query, listed: listed.includes(id) }).toEqual({ query, listed: false });
      }
      const offset = await t.http.get('/v1/articles').query({ limit: 100, status: 'all' }).set(bearer(editor)).expect(200);
      for (const id of ids) expect((offset.body.items as Article[]).map((a) => a.id)).not.toContain(id);
      expect((await get(published.id, reader)).status).toBe(404);
      expect((await read(published.id)).status).toBe('trashed');
      expect((await rows('SELECT status, status_before_trash FROM articles WHERE id = $1', [published.id]))[0]).toEqual({ status: 'trashed', status_before_trash: 'published' });
    });

    it('trash needs content:publish; trashing twice → 409; unknown → 404', async () => {
      const created = await create({ title: uniqueTitle('Trash scope') });
      expect((await trash(created.id, 403, writer)).body).toEqual(errorBody('insufficient_scope', expect.stringContaining('content:publish')));
      expect((await read(created.id)).status).toBe('draft');
      await trash(created.id);
      expect((await trash(created.id, 409)).body.code).toBe('invalid_state');
      await trash(UNKNOWN_ARTICLE, 404);
    });

    it('restore of a trashed draft → {id, status: draft}, with content:write alone', async () => {
      const created = await create({ title: uniqueTitle('Restore draft'), markdown: 'kept' });
      await trash(created.id);
      const res = await action(created.id, 'restore', 200, writer);
      expect(res.body).toEqual({ id: created.id, status: 'draft' });
      expect(await read(created.id)).toMatchObject({ status: 'draft', contentHtml: expect.stringContaining('kept') });
      expect((await listAll({ status: 'draft' })).map((a) => a.id)).toContain(created.id);
      // The open draft survived.
      expect((await draft(created.id)).body.id).toBe(created.draft_id);
    });

    it('restoring a previously published article needs content:publish: 403 with content:write alone, published with it', async () => {
      const created = await create({ title: uniqueTitle('Restore live'), markdown: 'live content', publish: true });
      await trash(created.id);
      const before = await snapshot();
      const denied = await action(created.id, 'restore', 403, writer);
      expect(denied.body).toEqual(errorBody('insufficient_scope', expect.stringContaining('content:publish')));
      expect(await snapshot()).toEqual(before);
      const res = await action(created.id, 'restore', 200, editor);
      expect(res.body).toEqual({ id: created.id, status: 'published' });
      expect(await read(created.id, reader)).toMatchObject({ status: 'published', contentHtml: expect.stringContaining('live content') });
      expect((await listAll({}, reader)).map((a) => a.id)).toContain(created.id);
    });

    it('restore of an article that is not trashed → 409 invalid_state; a content:read key → 403', async () => {
      const created = await create({ title: uniqueTitle('Not trashed') });
      const published = await create({ title: uniqueTitle('Not trashed live'), publish: true });
      const before = await snapshot();
      expect((await action(created.id, 'restore', 409)).body).toEqual(errorBody('invalid_state'));
      expect((await action(published.id, 'restore', 409)).body.code).toBe('invalid_state');
      expect(await snapshot()).toEqual(before);
      await trash(created.id);
      expect((await action(created.id, 'restore', 403, reader)).body.code).toBe('insufficient_scope');
      expect((await read(created.id)).status).toBe('trashed');
      await action(UNKNOWN_ARTICLE, 'restore', 404);
    });
  });

  describe('POST /v1/articles/:id/move', () => {
    it('sets the collection, null removes it, section_id moves it; unknown IDs → 400 and nothing changes', async () => {
      const col = await collection('Move target');
      const sect = await section('Move section');
      const created = await create({ title: uniqueTitle('Mover') }, writer);
      const moved = await action(created.id, 'move', 200, writer, { collection_id: col });
      expect(Object.keys(moved.body).sort()).toEqual(ARTICLE_KEYS);
      expect(moved.body).toMatchObject({ id: created.id, collectionId: col, sectionId: general });
      expect((await action(created.id, 'move', 200, writer, { section_id: sect })).body).toMatchObject({ collectionId: col, sectionId: sect });
      expect((await action(created.id, 'move', 200, writer, { collection_id: null })).body).toMatchObject({ collectionId: null, sectionId: sect });
      expect((await action(created.id, 'move', 200, writer, { collection_id: col, section_id: general })).body).toMatchObject({ collectionId: col, sectionId: general });
      expect((await rows('SELECT section_id, collection_id FROM articles WHERE id = $1', [created.id]))[0]).toEqual({ section_id: general, collection_id: col });

      const before = await snapshot();
      const badCollection = await action(created.id, 'move', 400, writer, { collection_id: UNKNOWN_COLLECTION });
      expect(badCollection.body).toMatchObject({ code: 'invalid_request', details: [{ field: 'collection_id', message: expect.any(String) }] });
      const badSection = await action(created.id, 'move', 400, writer, { section_id: UNKNOWN_SECTION });
      expect(badSection.body).toMatchObject({ code: 'invalid_request', details: [{ field: 'section_id', message: expect.any(String) }] });
      await action(created.id, 'move', 400, writer, { section_id: null });
      await action(created.id, 'move', 400, writer, { collectionId: col });
      expect(await snapshot()).toEqual(before);
    });

    it('a trashed article cannot be moved (409); unknown → 404; content:read → 403', async () => {
      const col = await collection('Move trashed');
      const created = await create({ title: uniqueTitle('Trashed mover') });
      await trash(created.id);
      const before = await snapshot();
      expect((await action(created.id, 'move', 409, editor, { collection_id: col })).body.code).toBe('invalid_state');
      expect(await snapshot()).toEqual(before);
      await action(UNKNOWN_ARTICLE, 'move', 404, editor, { collection_id: null });
      const live = await create({ title: uniqueTitle('Reader mover') });
      await action(live.id, 'move', 403, reader, { collection_id: col });
    });
  });

  describe('DELETE /v1/articles/:id/draft', () => {
    it('on a published article with a draft: the live content shows, no draft', async () => {
      const created = await create({ title: uniqueTitle('Discard'), markdown: 'the live one', publish: true });
      await patch(created.id, { markdown: 'the discarded one' });
      const res = await discard(created.id, 200, writer);
      expect(Object.keys(res.body).sort()).toEqual(ARTICLE_KEYS);
      expect(res.body).toMatchObject({ id: created.id, status: 'published', contentHtml: expect.stringContaining('the live one') });
      await draft(created.id, 404);
      expect(await rows('SELECT id FROM article_drafts WHERE article_id = $1', [created.id])).toEqual([]);
      expect((await read(created.id, reader)).contentHtml).toContain('the live one');
      // A new PATCH opens a fresh draft from the live content.
      const reopened = await patch(created.id, { title: uniqueTitle('Discard renamed') });
      expect((await draft(created.id)).body).toMatchObject({ id: reopened.draft_id, contentHtml: expect.stringContaining('the live one') });
    });

    it('on a never-published article → 409 invalid_state, the draft stays', async () => {
      const created = await create({ title: uniqueTitle('Only draft'), markdown: 'only' });
      const before = await snapshot();
      expect((await discard(created.id, 409)).body).toEqual(errorBody('invalid_state'));
      expect(await snapshot()).toEqual(before);
      expect((await draft(created.id)).body.id).toBe(created.draft_id);
    });

    it('without a draft → 409 invalid_state; unknown → 404; content:read → 403', async () => {
      const created = await create({ title: uniqueTitle('No draft to discard'), publish: true });
      const before = await snapshot();
      expect((await discard(created.id, 409)).body.code).toBe('invalid_state');
      expect(await snapshot()).toEqual(before);
      await discard(UNKNOWN_ARTICLE, 404);
      await patch(created.id, { markdown: 'x' });
      await discard(created.id, 403, reader);
      await draft(created.id, 200);
    });

    it('after an unpublish: discarding goes back to the last live content, also for a draft written after an earlier discard', async () => {
      const created = await create({ title: uniqueTitle('Unpublished discard'), markdown: 'last live', publish: true });
      const [live] = await rows<{ id: string }>('SELECT live_revision_id AS id FROM articles WHERE id = $1', [created.id]);
      await action(created.id, 'unpublish');
      await patch(created.id, { markdown: 'edit one' });
      expect((await discard(created.id)).body).toMatchObject({ status: 'draft', contentHtml: expect.stringContaining('last live') });
      await draft(created.id, 404);
      await patch(created.id, { markdown: 'edit two' });
      expect((await draft(created.id)).body).toMatchObject({ contentHtml: expect.stringContaining('edit two'), baseRevisionId: live!.id });
      expect((await discard(created.id)).body).toMatchObject({ status: 'draft', contentHtml: expect.stringContaining('last live') });
      expect((await read(created.id, editor, 'markdown')).contentMarkdown).toContain('last live');
    });
  });

  describe('sections and collections that hold articles cannot be deleted', () => {
    it('409 while they hold an article, trashed ones included; deletable once it moved out', async () => {
      const sect = await section('Holding section');
      const col = await collection('Holding collection');
      const created = await create({ title: uniqueTitle('Held'), sectionId: sect, collectionId: col });
      const deleteSection = () => t.http.delete(`/v1/sections/${sect}`).set(bearer(editor));
      const deleteCollection = () => t.http.delete(`/v1/collections/${col}`).set(bearer(editor));
      expect(outcome(await deleteSection())).toMatchObject({ status: 409, body: { code: 'invalid_state' } });
      expect(outcome(await deleteCollection())).toMatchObject({ status: 409, body: { code: 'invalid_state' } });
      await trash(created.id);
      expect(outcome(await deleteSection())).toMatchObject({ status: 409, body: { code: 'invalid_state' } });
      expect(outcome(await deleteCollection())).toMatchObject({ status: 409, body: { code: 'invalid_state' } });
      expect((await read(created.id)).sectionId).toBe(sect);

      // A trashed article cannot be moved; restore, move out, and the section and collection can go.
      await action(created.id, 'restore');
      await action(created.id, 'move', 200, editor, { collection_id: null });
      expect(outcome(await deleteCollection())).toMatchObject({ status: 200 });
      expect(outcome(await deleteSection())).toMatchObject({ status: 409 });
      await action(created.id, 'move', 200, editor, { section_id: general });
      expect(outcome(await deleteSection())).toMatchObject({ status: 200 });
    });

    it('racing a delete: an article goes in and the delete is 409, or the delete wins and the article is refused; never both', async () => {
      for (let round = 0; round < 5; round++) {
        const sect = await section(`Race section ${round}`);
        const col = await collection(`Race collection ${round}`);
        const mover = await create({ title: uniqueTitle('Race mover') });
        const [created, moved, sectionGone, collectionGone] = await Promise.all([
          t.http.post('/v1/articles').set(bearer(editor)).send({ title: uniqueTitle('Race create'), sectionId: sect }),
          t.http.post(`/v1/articles/${mover.id}/move`).set(bearer(editor)).send({ collection_id: col }),
          t.http.delete(`/v1/sections/${sect}`).set(bearer(editor)),
          t.http.delete(`/v1/collections/${col}`).set(bearer(editor)),
        ]);
        expect([outcome(created).status, sectionGone.status]).toEqual(created.status === 201 ? [201, 409] : [400, 200]);
        expect([outcome(moved).status, collectionGone.status]).toEqual(moved.status === 200 ? [200, 409] : [400, 200]);
        const [held] = await rows<{ n: number }>('SELECT COUNT(*)::int AS n FROM articles WHERE section_id = $1', [sect]);
        const [exists] = await rows<{ n: number }>('SELECT COUNT(*)::int AS n FROM sections WHERE id = $1', [sect]);
        expect({ held: held!.n, exists: exists!.n }).toEqual(created.status === 201 ? { held: 1, exists: 1 } : { held: 0, exists: 0 });
      }
    });
  });
});

describe('POST /v1/articles rate limit (default configuration)', () => {
  let t: TestApp;
  let db: pg.Client;
  let general: string;

  beforeAll(async () => {
    t = await startTestApp();
    db = new pg.Client({ connectionString: t.databaseUrl! });
    await db.connect();
    const key = await t.key(['content:read']);
    general = await defaultSectionId(t, key);
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  it('60 per hour per key: the headers say so, the 61st create is 429 rate_limited and creates nothing; other keys and reads go on', async () => {
    const key = await t.key(['content:write']);
    const first = await t.http.post('/v1/articles').set(bearer(key)).send({ title: 'Limited 1', sectionId: general });
    expect(outcome(first)).toMatchObject({ status: 201 });
    expect(first.headers['ratelimit-policy']).toBe('"default";q=60;w=3600');
    expect(first.headers['x-ratelimit-limit']).toBe('60');
    expect(first.headers['x-ratelimit-remaining']).toBe('59');
    expect(first.headers['ratelimit']).toEqual(expect.stringMatching(/^"default";r=59;t=\d+$/));
    for (let i = 2; i <= 60; i++) {
      const res = await t.http.post('/v1/articles').set(bearer(key)).send({ title: `Limited ${i}`, sectionId: general });
      expect(outcome(res)).toMatchObject({ status: 201 });
    }
    const count = async () => (await db.query('SELECT COUNT(*)::int AS n FROM articles')).rows[0].n as number;
    expect(await count()).toBe(60);
    const limited = await t.http.post('/v1/articles').set(bearer(key)).send({ title: 'Limited 61', sectionId: general });
    expect(outcome(limited)).toEqual({ status: 429, body: errorBody('rate_limited') });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(await count()).toBe(60);

    // Per key: another key still creates; other endpoints are under their own limit.
    const other = await t.key(['content:write']);
    expect((await t.http.post('/v1/articles').set(bearer(other)).send({ title: 'Other key', sectionId: general })).status).toBe(201);
    expect((await t.http.get('/v1/articles').query({ status: 'all' }).set(bearer(key))).status).toBe(200);
  });
});
