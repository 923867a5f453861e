import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Response } from 'supertest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';
import { DatabaseState } from '../support/db-state.js';

jest.setTimeout(60_000);

/**
 * Input PostgreSQL cannot store (NUL, unpaired surrogates) and malformed references and offsets: each was a 500
 * (some after part of the write), each is now a 400 `{ error, code, details }` naming the field, and nothing is
 * stored.
 */
describe('input that cannot be stored is a 400 naming the field, and nothing is saved', () => {
  let t: TestApp;
  let key: string;
  let db: DatabaseState;
  let sectionId: string;
  let articleId: string;
  let userId: string;

  const doc = (text: string, href = 'https://example.com/') => ({
    type: 'doc',
    content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Intro ' }, { type: 'text', text, marks: [{ type: 'link', attrs: { href } }] }] }],
  });

  /** Sends a request that must be refused: 400 invalid_request naming `field`, and not a row changed anywhere. */
  async function refused(request: () => PromiseLike<Response>, field: string, message: RegExp): Promise<Response> {
    const before = await db.snapshot();
    const res = await request();
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'invalid_request' });
    expect(typeof res.body.error).toBe('string');
    expect(res.body.details).toEqual(expect.arrayContaining([{ field, message: expect.stringMatching(message) }]));
    expect(DatabaseState.changed(before, await db.snapshot())).toEqual([]);
    return res;
  }

  const NUL = /must not contain the NUL character \(U\+0000\)/;
  const SURROGATE = /must be valid Unicode text: it contains an unpaired surrogate \(U\+D[89A-F][0-9A-F]{2}\)/;

  beforeAll(async () => {
    // Jobs go to Redis and stay there: no task runs and no relay writes while the tables are compared.
    t = await startTestApp({
      redis: true,
      runsJobs: false,
      env: { ...NO_LIMITS, HELPDESK_LANGUAGES: 'en,fr', RATE_LIMIT_PUBLIC_FEEDBACK_PER_MINUTE: '100000', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
    });
    key = await t.key(null);
    sectionId = (await t.http.post('/v1/sections').set(bearer(key)).send({ name: 'Billing' }).expect(201)).body.id;
    articleId = (await t.http.post('/v1/articles').set(bearer(key)).send({ title: 'Reset a password', sectionId, markdown: 'Open settings.', publish: true }).expect(201)).body.id;
    userId = (await t.http.post('/v1/users').set(bearer(key)).send({ email: 'reader@example.com' }).expect(201)).body.id;
    db = await DatabaseState.open(t.databaseUrl!);
  });

  afterAll(async () => {
    await db?.close();
    await t?.close();
  });

  describe('article bodies', () => {
    const text = 'content.content[0].content[1].text';
    const href = 'content.content[0].content[1].marks[0].attrs.href';

    it.each([
      ['NUL in a text node', doc('a\u0000b'), text, NUL],
      ['a lone high surrogate in a text node', doc('key \ud800'), text, SURROGATE],
      ['a lone low surrogate in a text node', doc('\udc00 key'), text, SURROGATE],
      ['NUL in a link', doc('settings', 'https://example.com/\u0000'), href, NUL],
    ])('POST /v1/articles refuses %s', async (_label, content, field, message) => {
      await refused(() => t.http.post('/v1/articles').set(bearer(key)).send({ title: 'New', sectionId, content }), field, message);
    });

    it('POST /v1/articles refuses a lone surrogate in markdown', async () => {
      await refused(() => t.http.post('/v1/articles').set(bearer(key)).send({ title: 'New', sectionId, markdown: '# Title \ud83d' }), 'markdown', SURROGATE);
    });

    it.each([
      ['NUL', doc('a\u0000b'), NUL],
      ['a lone surrogate', doc('\ud800'), SURROGATE],
    ])('PATCH /v1/articles/{id} refuses %s in content and keeps the article as it was', async (_label, content, message) => {
      const before = (await t.http.get(`/v1/articles/${articleId}?format=markdown`).set(bearer(key)).expect(200)).body;
      await refused(() => t.http.patch(`/v1/articles/${articleId}`).set(bearer(key)).send({ title: 'Changed', content }), text, message);
      expect((await t.http.get(`/v1/articles/${articleId}?format=markdown`).set(bearer(key)).expect(200)).body).toEqual(before);
      await t.http.get(`/v1/articles/${articleId}/draft`).set(bearer(key)).expect(404);
    });

    it.each([
      ['NUL in content', { title: 'Réinitialiser', content: doc('a\u0000b') }, text, NUL],
      ['a lone surrogate in content', { title: 'Réinitialiser', content: doc('\udfff') }, text, SURROGATE],
      ['a lone surrogate in markdown', { title: 'Réinitialiser', markdown: 'Ouvrir \ud800' }, 'markdown', SURROGATE],
      ['a lone surrogate in the title', { title: 'R\ud800', markdown: 'Ouvrir' }, 'title', SURROGATE],
    ])('PUT /v1/articles/{id}/translations/fr refuses %s', async (_label, body, field, message) => {
      await refused(() => t.http.put(`/v1/articles/${articleId}/translations/fr`).set(bearer(key)).send(body), field, message);
      expect((await t.http.get(`/v1/articles/${articleId}/translations`).set(bearer(key)).expect(200)).body.results).toEqual([]);
    });
  });

  describe('emails (a lone surrogate made the email validator throw)', () => {
    it('POST /v1/users', async () => {
      await refused(() => t.http.post('/v1/users').set(bearer(key)).send({ email: 'a\ud800@example.com' }), 'email', SURROGATE);
    });

    it('PATCH /v1/users/{id}', async () => {
      await refused(() => t.http.patch(`/v1/users/${userId}`).set(bearer(key)).send({ email: 'b\udc00@example.com' }), 'email', SURROGATE);
    });

    it('POST /v1/public/articles/{id}/feedback, without a key', async () => {
      await refused(() => t.http.post(`/v1/public/articles/${articleId}/feedback`).send({ type: 'negative', feedback: 'Old', email: '\ud800@example.com' }), 'email', SURROGATE);
    });
  });

  describe('every other text field, through the one body check', () => {
    it.each([
      ['an article title', () => t.http.post('/v1/articles').set(bearer(key)).send({ title: 'T\ud800', sectionId, markdown: 'x' }), 'title', SURROGATE],
      ['SEO keywords', () => t.http.patch(`/v1/articles/${articleId}`).set(bearer(key)).send({ keywords: 'a\u0000' }), 'keywords', NUL],
      ['a section name', () => t.http.post('/v1/sections').set(bearer(key)).send({ name: 'x\ud800' }), 'name', SURROGATE],
      ['a section translation', () => t.http.put(`/v1/sections/${sectionId}/translations/fr`).set(bearer(key)).send({ name: '\u0000' }), 'name', NUL],
      ['a collection subtitle', () => t.http.post('/v1/collections').set(bearer(key)).send({ title: 'C', subtitle: 'x\udbff' }), 'subtitle', SURROGATE],
      ['a user name', () => t.http.post('/v1/users').set(bearer(key)).send({ email: 'n@example.com', name: 'N\ud800' }), 'name', SURROGATE],
      ['a feedback comment', () => t.http.post(`/v1/public/articles/${articleId}/feedback`).send({ type: 'positive', feedback: 'ok\ud800' }), 'feedback', SURROGATE],
      ['a webhook description', () => t.http.post('/v1/webhooks').set(bearer(key)).send({ url: 'http://127.0.0.1:9/h', events: ['*'], description: 'd\u0000' }), 'description', NUL],
      ['a webhook event name', () => t.http.post('/v1/webhooks').set(bearer(key)).send({ url: 'http://127.0.0.1:9/h', events: ['article.published', '\ud800'] }), 'events[1]', SURROGATE],
      ['a task instruction', () => t.http.post('/v1/tasks').set(bearer(key)).send({ instruction: 'Write \u0000' }), 'instruction', NUL],
      ['a helpdesk name', () => t.http.patch('/v1/helpdesk').set(bearer(key)).send({ name: '\ud800' }), 'name', SURROGATE],
    ] as const)('refuses %s', async (_label, request, field, message) => {
      await refused(request, field, message);
    });

    it.each([
      ['a search query', () => t.http.get('/v1/articles/search?query=pass%00word').set(bearer(key)), 'query'],
      ['a list filter', () => t.http.get('/v1/collections?section_id=%00').set(bearer(key)), 'section_id'],
      ['a path ID', () => t.http.get('/v1/sections/sect_%00').set(bearer(key)), 'id'],
      ['a path ID of a write', () => t.http.delete('/v1/webhooks/%00').set(bearer(key)), 'id'],
    ] as const)('refuses NUL in %s, naming the parameter', async (_label, request, field) => {
      await refused(request, field, NUL);
    });

    it('keeps text that is valid Unicode as it was sent: surrogate pairs (emoji), U+FFFD, other control characters', async () => {
      const title = '🔑 Reset \ufffd \u0001 \u202e 漢字';
      const res = await t.http.post('/v1/sections').set(bearer(key)).send({ name: title }).expect(201);
      expect((await t.http.get(`/v1/sections/${res.body.id}`).set(bearer(key)).expect(200)).body.name).toBe(title);
    });
  });

  describe('references and offsets', () => {
    it.each(['targetArticleId', 'targetSectionId', 'targetCollectionId'])('POST /v1/tasks refuses an empty %s', async (field) => {
      await refused(() => t.http.post('/v1/tasks').set(bearer(key)).send({ instruction: 'Rename "a" to "b"', [field]: '' }), field, /must be an ID, not an empty string/);
    });

    it.each([
      ['POST /v1/articles', 'sectionId', () => t.http.post('/v1/articles').set(bearer(key)).send({ title: 'T', sectionId: '', markdown: 'x' })],
      ['POST /v1/articles', 'collectionId', () => t.http.post('/v1/articles').set(bearer(key)).send({ title: 'T', sectionId, collectionId: '', markdown: 'x' })],
      ['POST /v1/articles/{id}/move', 'section_id', () => t.http.post(`/v1/articles/${articleId}/move`).set(bearer(key)).send({ section_id: '' })],
      ['POST /v1/collections', 'parentCollectionId', () => t.http.post('/v1/collections').set(bearer(key)).send({ title: 'C', parentCollectionId: '' })],
    ] as const)('%s refuses an empty %s', async (_label, field, request) => {
      await refused(request, field, /must be an ID, not an empty string/);
    });

    it.each(['/v1/articles', '/v1/tasks'])('GET %s refuses an offset past 2^53 - 1 (it overflowed PostgreSQL bigint)', async (path) => {
      for (const offset of ['99999999999999999999', '9223372036854775808', '9007199254740992']) {
        const res = await refused(() => t.http.get(`${path}?limit=1&offset=${offset}`).set(bearer(key)), 'offset', /offset must be from 0 to 9007199254740991/);
        expect(res.body.error).toMatch(/offset/);
      }
      const last = await t.http.get(`${path}?limit=1&offset=9007199254740991`).set(bearer(key)).expect(200);
      expect(last.body).toMatchObject({ items: [], limit: 1, offset: 9007199254740991 });
    });
  });
});
