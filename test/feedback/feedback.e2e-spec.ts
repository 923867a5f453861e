import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import type { Response } from 'supertest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { ARTICLE_KEYS, NO_LIMITS } from '../support/articles.js';
import { clockPast } from '../support/clock.js';
import { EVENT_ID, ISO_MS, ULID, UNKNOWN_ARTICLE, USER_ID } from '../support/formats.js';
import { outcome } from '../support/outcome.js';
import { defaultSectionId } from '../support/sections.js';
import { uniqueEmail, uniqueTitle } from '../support/unique.js';

jest.setTimeout(60_000);

const FEEDBACK_ID = new RegExp(`^fb_${ULID}$`);
const UNKNOWN_FEEDBACK = 'fb_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';
/** Every field of a feedback entry, in the order the API writes them. */
const FEEDBACK_KEYS = ['id', 'articleId', 'articleTitle', 'type', 'feedback', 'email', 'resolved', 'createdAt', 'user'];

type Json = Record<string, unknown>;

interface FeedbackUser {
  id: string;
  name: string | null;
  email: string;
}

interface Feedback {
  id: string;
  articleId: string | null;
  articleTitle: string | null;
  type: 'positive' | 'negative';
  feedback: string;
  email: string | null;
  resolved: boolean;
  createdAt: string;
  user: FeedbackUser | null;
}

interface Page<T> {
  results: T[];
  has_more: boolean;
  next_cursor: string | null;
}

interface Article {
  id: string;
  title: string;
  contentHtml?: string;
  sectionId: string;
  collectionId: string | null;
  status: string;
}

interface OutboxEvent {
  id: string;
  type: string;
  data: Json;
  occurred_at: Date;
}

describe('feedback', () => {
  let t: TestApp;
  let db: pg.Client;
  /** Every scope. */
  let admin: string;
  /** content:write + content:publish: makes the articles. */
  let editor: string;
  /** content:read only. */
  let reader: string;
  /** content:write only. */
  let writer: string;
  /** analytics:read only. */
  let analytics: string;
  let general: string;

  // ---- articles -------------------------------------------------------------------------------------------------

  async function createArticle(body: Json = {}): Promise<Article> {
    const res = await t.http.post('/v1/articles').set(bearer(editor)).send({ title: uniqueTitle('Article'), sectionId: general, markdown: 'Body **text**', ...body });
    expect(outcome(res)).toMatchObject({ status: 201 });
    return res.body as Article;
  }

  async function publishedArticle(body: Json = {}): Promise<Article> {
    const article = await createArticle(body);
    await publish(article.id);
    return { ...article, status: 'published' };
  }

  async function publish(id: string): Promise<void> {
    const res = await t.http.post(`/v1/articles/${id}/publish`).set(bearer(editor));
    expect(outcome(res)).toMatchObject({ status: 200, body: { status: 'published' } });
  }

  async function unpublish(id: string): Promise<void> {
    const res = await t.http.post(`/v1/articles/${id}/unpublish`).set(bearer(editor));
    expect(outcome(res)).toMatchObject({ status: 200, body: { status: 'draft' } });
  }

  async function trash(id: string): Promise<void> {
    const res = await t.http.delete(`/v1/articles/${id}`).set(bearer(editor));
    expect(outcome(res)).toMatchObject({ status: 200, body: { id, status: 'trashed' } });
  }

  /** Writes the open draft (not live until published). */
  async function editDraft(id: string, body: Json): Promise<void> {
    const res = await t.http.patch(`/v1/articles/${id}`).set(bearer(editor)).send(body);
    expect(outcome(res)).toMatchObject({ status: 200 });
  }

  // ---- feedback -------------------------------------------------------------------------------------------------

  function submitRequest(articleId: string, body: unknown, key?: string) {
    const request = t.http.post(`/v1/public/articles/${articleId}/feedback`);
    return (key ? request.set(bearer(key)) : request).send(body as object);
  }

  async function submit(articleId: string, body: Json, status = 201): Promise<Response> {
    const res = await submitRequest(articleId, body);
    expect(outcome(res)).toMatchObject({ status });
    return res;
  }

  /** Leaves feedback without a key, then reads the stored entry as GET /v1/feedback shows it (the public answer is a receipt). */
  async function leave(articleId: string, body: Json = {}): Promise<Feedback> {
    const receipt = (await submit(articleId, { type: 'positive', feedback: 'Helpful, thanks.', ...body })).body as { id: string };
    return listed({ id: receipt.id, articleId });
  }

  async function feedbackPage(query: Record<string, string | number>, key = analytics): Promise<Page<Feedback>> {
    const res = await t.http.get('/v1/feedback').query(query).set(bearer(key));
    expect(outcome(res)).toMatchObject({ status: 200 });
    expect(Object.keys(res.body).sort()).toEqual(['has_more', 'next_cursor', 'results']);
    return res.body as Page<Feedback>;
  }

  /** Every entry of a filtered list (all pages, the filter repeated on each), newest first. */
  async function allFeedback(query: Record<string, string> = {}, pageSize = 100): Promise<Feedback[]> {
    const entries: Feedback[] = [];
    let cursor: string | null = null;
    do {
      const current: Page<Feedback> = await feedbackPage({ page_size: pageSize, ...query, ...(cursor ? { start_cursor: cursor } : {}) });
      entries.push(...current.results);
      cursor = current.next_cursor;
      expect(entries.length).toBeLessThan(10_000);
    } while (cursor);
    return entries;
  }

  /** One entry as GET /v1/feedback shows it now. */
  async function listed(entry: Pick<Feedback, 'id' | 'articleId'>): Promise<Feedback> {
    const found = (await allFeedback({ article_id: entry.articleId! })).find((f) => f.id === entry.id);
    expect(found).toBeDefined();
    return found!;
  }

  async function resolve(id: string, body: unknown, status = 200, key = writer): Promise<Response> {
    const res = await t.http.patch(`/v1/feedback/${id}`).set(bearer(key)).send(body as object);
    expect(outcome(res)).toMatchObject({ status });
    return res;
  }

  async function summary(articleId: string, status = 200, key = analytics): Promise<Response> {
    const res = await t.http.get(`/v1/articles/${articleId}/feedback/summary`).set(bearer(key));
    expect(outcome(res)).toMatchObject({ status });
    return res;
  }

  // ---- users and events -----------------------------------------------------------------------------------------

  async function createUser(email: string, name: string | null = null): Promise<FeedbackUser> {
    const res = await t.http.post('/v1/users').set(bearer(writer)).send({ email, name });
    expect(outcome(res)).toMatchObject({ status: 201 });
    return res.body as FeedbackUser;
  }

  async function patchUser(id: string, body: Json): Promise<void> {
    const res = await t.http.patch(`/v1/users/${id}`).set(bearer(writer)).send(body);
    expect(outcome(res)).toMatchObject({ status: 200 });
  }

  async function countFeedback(): Promise<number> {
    return Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM feedback')).rows[0]!.n);
  }

  /** Runs `action` and returns the outbox events it recorded, in order. */
  async function recorded(action: () => Promise<unknown>): Promise<OutboxEvent[]> {
    const [{ mark }] = (await db.query<{ mark: string }>("SELECT coalesce(max(id), '') AS mark FROM outbox_events")).rows;
    const before = Date.now();
    await action();
    const after = Date.now();
    const events = (await db.query<OutboxEvent>('SELECT id, type, data, occurred_at FROM outbox_events WHERE id > $1 ORDER BY id', [mark])).rows;
    for (const event of events) {
      expect(event.id).toMatch(EVENT_ID);
      expect(event.occurred_at.getTime()).toBeGreaterThanOrEqual(before);
      expect(event.occurred_at.getTime()).toBeLessThanOrEqual(after);
    }
    return events;
  }

  beforeAll(async () => {
    t = await startTestApp({ env: { ...NO_LIMITS, RATE_LIMIT_PUBLIC_FEEDBACK_PER_MINUTE: '100000' } });
    db = new pg.Client({ connectionString: t.databaseUrl! });
    await db.connect();
    admin = await t.key();
    editor = await t.key(['content:write', 'content:publish']);
    reader = await t.key(['content:read']);
    writer = await t.key(['content:write']);
    analytics = await t.key(['analytics:read']);
    general = await defaultSectionId(t, reader);
  });
  afterAll(async () => {
    await db?.end();
    await t?.close();
  });

  describe('POST /v1/public/articles/{id}/feedback', () => {
    it('without a key: 201 with only the receipt { id, createdAt }; the entry { id, articleId, articleTitle, type, feedback, email, resolved: false, createdAt, user } is listed', async () => {
      const article = await publishedArticle({ title: uniqueTitle('Install the app') });
      const res = await submit(article.id, { type: 'negative', feedback: 'The screenshots are out of date.', email: 'Reader@Example.COM' });
      expect(res.body).toEqual({ id: expect.stringMatching(FEEDBACK_ID), createdAt: expect.stringMatching(ISO_MS) });
      const entry = await listed({ id: res.body.id, articleId: article.id });
      expect(Object.keys(entry)).toEqual(FEEDBACK_KEYS);
      expect(entry).toEqual({
        id: res.body.id,
        articleId: article.id,
        articleTitle: article.title,
        type: 'negative',
        feedback: 'The screenshots are out of date.',
        email: 'reader@example.com',
        resolved: false,
        createdAt: res.body.createdAt,
        user: null,
      });
      // Stored lowercase.
      const [row] = (await db.query('SELECT email, article_title, resolved FROM feedback WHERE id = $1', [res.body.id])).rows;
      expect(row).toEqual({ email: 'reader@example.com', article_title: article.title, resolved: false });
    });

    it('the public answer never tells whether an email belongs to a help center user (no lookup oracle)', async () => {
      const article = await publishedArticle();
      const known = await createUser(uniqueEmail('known'), 'Known Reader');
      const fromKnown = await submit(article.id, { type: 'positive', feedback: 'Hi', email: known.email });
      const fromStranger = await submit(article.id, { type: 'positive', feedback: 'Hi', email: uniqueEmail('stranger') });
      for (const res of [fromKnown, fromStranger]) expect(Object.keys(res.body)).toEqual(['id', 'createdAt']);
      expect(JSON.stringify(fromKnown.body)).not.toContain(known.id);
      expect(JSON.stringify(fromKnown.body)).not.toContain('Known Reader');
      // Those with analytics:read still see the match.
      expect((await listed({ id: fromKnown.body.id, articleId: article.id })).user).toEqual({ id: known.id, name: 'Known Reader', email: known.email });
    });

    it('email is optional: omitted or null means anonymous (email null, user null)', async () => {
      const article = await publishedArticle();
      const omitted = await leave(article.id);
      expect(omitted).toMatchObject({ email: null, user: null, type: 'positive' });
      const explicit = await leave(article.id, { email: null, type: 'negative' });
      expect(explicit).toMatchObject({ email: null, user: null, type: 'negative' });
    });

    it('only published articles: draft, unpublished, trashed and unknown articles are 404 not_found; nothing stored', async () => {
      const draft = await createArticle();
      const unpublished = await publishedArticle();
      await unpublish(unpublished.id);
      const trashed = await publishedArticle();
      await trash(trashed.id);
      const before = await countFeedback();
      for (const id of [draft.id, unpublished.id, trashed.id, UNKNOWN_ARTICLE, 'not-an-id']) {
        const res = await submit(id, { type: 'positive', feedback: 'Hello' }, 404);
        expect(res.body).toMatchObject({ code: 'not_found', error: expect.any(String) });
      }
      // An editor's key does not open an unpublished article to feedback either.
      const withKey = await submitRequest(draft.id, { type: 'positive', feedback: 'Hello' }, admin);
      expect(outcome(withKey)).toMatchObject({ status: 404, body: { code: 'not_found' } });
      expect(await countFeedback()).toBe(before);
    });

    it('type must be positive or negative: anything else (or none) is 400 invalid_request naming type', async () => {
      const article = await publishedArticle();
      const before = await countFeedback();
      for (const type of ['neutral', 'POSITIVE', '', 1, null, undefined]) {
        const res = await submit(article.id, { type, feedback: 'Text' }, 400);
        expect(res.body).toMatchObject({ code: 'invalid_request' });
        expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'type' })]));
      }
      expect(await countFeedback()).toBe(before);
    });

    it('feedback must be 1 to 5000 characters: empty, blank, missing, non-string or 5001 is 400; exactly 5000 is stored', async () => {
      const article = await publishedArticle();
      const before = await countFeedback();
      for (const feedback of ['', '   ', 'x'.repeat(5001), undefined, null, 42]) {
        const res = await submit(article.id, { type: 'positive', feedback }, 400);
        expect(res.body).toMatchObject({ code: 'invalid_request' });
        expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'feedback' })]));
      }
      expect(await countFeedback()).toBe(before);
      const longest = 'é'.repeat(2500) + 'x'.repeat(2500);
      const res = await submit(article.id, { type: 'positive', feedback: longest });
      const stored = await listed({ id: res.body.id, articleId: article.id });
      expect(stored.feedback).toBe(longest);
      expect(stored.feedback).toHaveLength(5000);
    });

    it('an invalid email is 400 invalid_request naming email; unknown fields are 400; non-JSON is 415', async () => {
      const article = await publishedArticle();
      const before = await countFeedback();
      for (const email of ['not-an-email', 'a@b', 'x y@example.com', '', 7]) {
        const res = await submit(article.id, { type: 'positive', feedback: 'Text', email }, 400);
        expect(res.body).toMatchObject({ code: 'invalid_request' });
        expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'email' })]));
      }
      const unknown = await submit(article.id, { type: 'positive', feedback: 'Text', resolved: true }, 400);
      expect(unknown.body).toMatchObject({ code: 'invalid_request' });
      const text = await t.http.post(`/v1/public/articles/${article.id}/feedback`).set('Content-Type', 'text/plain').send('positive');
      expect(outcome(text)).toMatchObject({ status: 415, body: { code: 'unsupported_media_type' } });
      expect(await countFeedback()).toBe(before);
    });

    it('articleTitle is the live title at submission: a pending draft rename does not change it, and old entries keep the old title after republishing', async () => {
      const oldTitle = uniqueTitle('Old title');
      const newTitle = uniqueTitle('New title');
      const article = await publishedArticle({ title: oldTitle });
      const first = await leave(article.id);
      expect(first.articleTitle).toBe(oldTitle);

      // Renamed in the open draft only: readers still see the old title, so does new feedback.
      await editDraft(article.id, { title: newTitle });
      const second = await leave(article.id);
      expect(second.articleTitle).toBe(oldTitle);

      await publish(article.id);
      const third = await leave(article.id);
      expect(third.articleTitle).toBe(newTitle);

      const entries = await allFeedback({ article_id: article.id });
      expect(entries.map((e) => [e.id, e.articleTitle])).toEqual([
        [third.id, newTitle],
        [second.id, oldTitle],
        [first.id, oldTitle],
      ]);
    });

    it('a trashed article keeps its feedback in the list (with the title it had)', async () => {
      const article = await publishedArticle();
      const entry = await leave(article.id);
      await trash(article.id);
      expect(await listed(entry)).toEqual(entry);
    });
  });

  describe('matching feedback to help center users', () => {
    it('anonymous feedback, or an email no user has, has user null', async () => {
      const article = await publishedArticle();
      expect((await leave(article.id)).user).toBeNull();
      const stranger = await leave(article.id, { email: uniqueEmail('stranger') });
      expect(stranger.user).toBeNull();
      expect((await listed(stranger)).user).toBeNull();
    });

    it('matches case-insensitively: user Jane@Example.com, feedback from JANE@example.COM', async () => {
      const article = await publishedArticle();
      const jane = await createUser('Jane@Example.com', 'Jane');
      expect(jane.email).toBe('jane@example.com');
      const entry = await leave(article.id, { email: 'JANE@example.COM' });
      expect(entry.email).toBe('jane@example.com');
      expect(entry.user).toEqual({ id: jane.id, name: 'Jane', email: 'jane@example.com' });
      expect(Object.keys(entry.user!)).toEqual(['id', 'name', 'email']);
      expect((await listed(entry)).user).toEqual({ id: jane.id, name: 'Jane', email: 'jane@example.com' });
    });

    it('matching happens when read: a user created after the feedback shows on the earlier entry', async () => {
      const article = await publishedArticle();
      const email = uniqueEmail('late');
      const entry = await leave(article.id, { email: email.toUpperCase() });
      expect(entry.user).toBeNull();
      expect((await listed(entry)).user).toBeNull();

      const late = await createUser(email, 'Late Comer');
      expect(late.id).toMatch(USER_ID);
      expect((await listed(entry)).user).toEqual({ id: late.id, name: 'Late Comer', email });

      // The user's current name shows, too.
      await patchUser(late.id, { name: null });
      expect((await listed(entry)).user).toEqual({ id: late.id, name: null, email });
    });

    it("changing a user's email moves the match from the old address's entries to the new one's", async () => {
      const article = await publishedArticle();
      const oldEmail = uniqueEmail('move-old');
      const newEmail = uniqueEmail('move-new');
      const user = await createUser(oldEmail, 'Mover');
      const fromOld = await leave(article.id, { email: oldEmail });
      const fromNew = await leave(article.id, { email: newEmail });
      expect(fromOld.user).toEqual({ id: user.id, name: 'Mover', email: oldEmail });
      expect(fromNew.user).toBeNull();

      await patchUser(user.id, { email: newEmail.toUpperCase() });
      expect((await listed(fromOld)).user).toBeNull();
      expect((await listed(fromNew)).user).toEqual({ id: user.id, name: 'Mover', email: newEmail });
      // The entries' own emails are what the submitter gave.
      expect((await listed(fromOld)).email).toBe(oldEmail);
    });
  });

  describe('GET /v1/feedback', () => {
    it('needs analytics:read: content:read and content:write are 403 naming it; no key is 401', async () => {
      for (const key of [reader, writer, editor]) {
        const res = await t.http.get('/v1/feedback').set(bearer(key));
        expect(outcome(res)).toMatchObject({ status: 403, body: { code: 'insufficient_scope', error: expect.stringContaining('analytics:read') } });
      }
      const anonymous = await t.http.get('/v1/feedback');
      expect(outcome(anonymous)).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
      await feedbackPage({}, admin);
    });

    it('is a cursor page, newest first; page_size 2 walks 5 entries in pages of 2, 2, 1; each entry has articleTitle and user', async () => {
      const article = await publishedArticle({ title: uniqueTitle('Paged') });
      const user = await createUser(uniqueEmail('paged'), 'Pager');
      const made: Feedback[] = [];
      for (let i = 0; i < 5; i++) {
        const entry = await leave(article.id, { feedback: `Entry ${i}`, type: i % 2 ? 'negative' : 'positive', email: i === 2 ? user.email : null });
        made.push(entry);
        await clockPast(entry.createdAt);
      }
      const expected = [...made].reverse();

      const pages: Array<Page<Feedback>> = [];
      let cursor: string | null = null;
      do {
        const current: Page<Feedback> = await feedbackPage({ article_id: article.id, page_size: 2, ...(cursor ? { start_cursor: cursor } : {}) });
        pages.push(current);
        cursor = current.next_cursor;
        expect(pages.length).toBeLessThan(10);
      } while (cursor);
      expect(pages.map((p) => p.results.length)).toEqual([2, 2, 1]);
      expect(pages.map((p) => p.has_more)).toEqual([true, true, false]);
      expect(typeof pages[0]!.next_cursor).toBe('string');
      expect(pages[2]!.next_cursor).toBeNull();
      const results = pages.flatMap((p) => p.results);
      expect(results).toEqual(expected);
      for (const entry of results) {
        expect(Object.keys(entry)).toEqual(FEEDBACK_KEYS);
        expect(entry.articleTitle).toBe(article.title);
      }
      expect(results.find((e) => e.feedback === 'Entry 2')!.user).toEqual({ id: user.id, name: 'Pager', email: user.email });

      // The unfiltered list is newest first too, and holds the same entries.
      const everything = await allFeedback();
      const times = everything.map((e) => Date.parse(e.createdAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(everything.filter((e) => e.articleId === article.id)).toEqual(expected);
    });

    it('filters article_id, type and resolved (combinable)', async () => {
      const a = await publishedArticle();
      const b = await publishedArticle();
      const aPositive = await leave(a.id, { type: 'positive' });
      const aNegative = await leave(a.id, { type: 'negative' });
      const aResolved = await leave(a.id, { type: 'negative' });
      const bNegative = await leave(b.id, { type: 'negative' });
      await resolve(aResolved.id, { resolved: true });

      const ids = async (query: Record<string, string>) => (await allFeedback(query)).map((e) => e.id);
      expect(await ids({ article_id: a.id })).toEqual([aResolved.id, aNegative.id, aPositive.id]);
      expect(await ids({ article_id: b.id })).toEqual([bNegative.id]);
      expect(await ids({ article_id: a.id, type: 'negative' })).toEqual([aResolved.id, aNegative.id]);
      expect(await ids({ article_id: a.id, type: 'positive' })).toEqual([aPositive.id]);
      expect(await ids({ article_id: a.id, resolved: 'true' })).toEqual([aResolved.id]);
      expect(await ids({ article_id: a.id, resolved: 'false' })).toEqual([aNegative.id, aPositive.id]);
      expect(await ids({ article_id: a.id, resolved: 'false', type: 'negative' })).toEqual([aNegative.id]);
      expect(await ids({ article_id: UNKNOWN_ARTICLE })).toEqual([]);

      // Across articles: every listed entry matches the filter.
      const negatives = await allFeedback({ type: 'negative' });
      expect(negatives.every((e) => e.type === 'negative')).toBe(true);
      expect(negatives.map((e) => e.id)).toEqual(expect.arrayContaining([aResolved.id, aNegative.id, bNegative.id]));
      const resolved = await allFeedback({ resolved: 'true' });
      expect(resolved.every((e) => e.resolved)).toBe(true);
      expect(resolved.map((e) => e.id)).toContain(aResolved.id);
      const unresolved = await allFeedback({ resolved: 'false' });
      expect(unresolved.every((e) => !e.resolved)).toBe(true);
      expect(unresolved.map((e) => e.id)).not.toContain(aResolved.id);
    });

    it('a filtered list pages with the filter: page_size 1 over type=negative of one article', async () => {
      const article = await publishedArticle();
      const n1 = await leave(article.id, { type: 'negative' });
      await clockPast(n1.createdAt);
      await leave(article.id, { type: 'positive' });
      const n2 = await leave(article.id, { type: 'negative' });
      const walked = await allFeedback({ article_id: article.id, type: 'negative' }, 1);
      expect(walked.map((e) => e.id)).toEqual([n2.id, n1.id]);
    });

    it('bad query values are 400: resolved=maybe, type=meh, page_size out of range; a bad cursor is 400 invalid_cursor', async () => {
      for (const query of [{ resolved: 'maybe' }, { resolved: '' }, { resolved: '1' }, { type: 'meh' }, { page_size: '0' }, { page_size: '101' }, { page_size: 'x' }]) {
        const res = await t.http.get('/v1/feedback').query(query).set(bearer(analytics));
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request', error: expect.any(String) } });
      }
      const resolvedError = await t.http.get('/v1/feedback').query({ resolved: 'maybe' }).set(bearer(analytics));
      expect(resolvedError.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'resolved' })]));
      const typeError = await t.http.get('/v1/feedback').query({ type: 'meh' }).set(bearer(analytics));
      expect(typeError.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'type' })]));

      const bad = await t.http.get('/v1/feedback').query({ start_cursor: 'not-a-cursor' }).set(bearer(analytics));
      expect(outcome(bad)).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } });
      // A cursor of another list (help center users) is refused.
      await createUser(uniqueEmail('cursor'));
      await createUser(uniqueEmail('cursor'));
      const users = await t.http.get('/v1/users').query({ page_size: 1 }).set(bearer(editor)).expect(200);
      expect(typeof users.body.next_cursor).toBe('string');
      const foreign = await t.http.get('/v1/feedback').query({ start_cursor: users.body.next_cursor }).set(bearer(analytics));
      expect(outcome(foreign)).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } });
    });
  });

  describe('PATCH /v1/feedback/{id}', () => {
    it('{ resolved: true } → 200 { id, resolved: true }; the list shows it resolved; back to false works too', async () => {
      const article = await publishedArticle();
      const entry = await leave(article.id);
      const res = await resolve(entry.id, { resolved: true });
      expect(res.body).toEqual({ id: entry.id, resolved: true });
      expect(await listed(entry)).toEqual({ ...entry, resolved: true });
      const back = await resolve(entry.id, { resolved: false });
      expect(back.body).toEqual({ id: entry.id, resolved: false });
      expect(await listed(entry)).toEqual(entry);
      // A legacy (full access) key may too.
      expect((await resolve(entry.id, { resolved: true }, 200, admin)).body).toEqual({ id: entry.id, resolved: true });
    });

    it('resolved missing, null or not a boolean, or unknown fields, is 400 invalid_request; nothing changes', async () => {
      const article = await publishedArticle();
      const entry = await leave(article.id);
      for (const body of [{}, { resolved: null }, { resolved: 'true' }, { resolved: 1 }, { resolved: true, feedback: 'edited' }]) {
        const res = await resolve(entry.id, body, 400);
        expect(res.body).toMatchObject({ code: 'invalid_request', error: expect.any(String) });
      }
      expect(await listed(entry)).toEqual(entry);
    });

    it('an unknown entry is 404 not_found', async () => {
      const res = await resolve(UNKNOWN_FEEDBACK, { resolved: true }, 404);
      expect(res.body).toMatchObject({ code: 'not_found' });
    });

    it('needs content:write: analytics:read and content:read are 403 naming it; no key is 401; nothing changes', async () => {
      const article = await publishedArticle();
      const entry = await leave(article.id);
      for (const key of [analytics, reader]) {
        const res = await resolve(entry.id, { resolved: true }, 403, key);
        expect(res.body).toMatchObject({ code: 'insufficient_scope', error: expect.stringContaining('content:write') });
      }
      const anonymous = await t.http.patch(`/v1/feedback/${entry.id}`).send({ resolved: true });
      expect(outcome(anonymous)).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
      expect((await listed(entry)).resolved).toBe(false);
    });
  });

  describe('events', () => {
    it('submission records feedback.created whose data is the entry as GET /v1/feedback returns it', async () => {
      const article = await publishedArticle();
      const jane = await createUser(uniqueEmail('evented'), 'Evented');
      let res: Response | undefined;
      const events = await recorded(async () => {
        res = await submit(article.id, { type: 'negative', feedback: 'Needs work', email: jane.email.toUpperCase() });
      });
      expect(events.map((e) => e.type)).toEqual(['feedback.created']);
      const entry = await listed({ id: res!.body.id, articleId: article.id });
      expect(events[0]!.data).toEqual(entry);
      // Same fields in the same order as the listed entry.
      expect(Object.keys(events[0]!.data)).toEqual(Object.keys(entry));
      expect(events[0]!.data).toMatchObject({ user: { id: jane.id, name: 'Evented', email: jane.email } });
    });

    it('a change records feedback.updated with the updated entry; setting the same value records nothing', async () => {
      const article = await publishedArticle();
      const entry = await leave(article.id, { email: uniqueEmail('upd') });

      const resolving = await recorded(() => resolve(entry.id, { resolved: true }));
      expect(resolving.map((e) => e.type)).toEqual(['feedback.updated']);
      expect(resolving[0]!.data).toEqual({ ...entry, resolved: true });
      expect(Object.keys(resolving[0]!.data)).toEqual(FEEDBACK_KEYS);

      const again = await recorded(() => resolve(entry.id, { resolved: true }));
      expect(again).toEqual([]);

      const reopening = await recorded(() => resolve(entry.id, { resolved: false }));
      expect(reopening.map((e) => e.type)).toEqual(['feedback.updated']);
      expect(reopening[0]!.data).toEqual(entry);

      const unchanged = await recorded(() => resolve(entry.id, { resolved: false }));
      expect(unchanged).toEqual([]);
    });

    it('rejected submissions and rejected PATCHes record nothing', async () => {
      const article = await publishedArticle();
      const draft = await createArticle();
      const entry = await leave(article.id);
      const events = await recorded(async () => {
        await submit(article.id, { type: 'meh', feedback: 'x' }, 400);
        await submit(draft.id, { type: 'positive', feedback: 'x' }, 404);
        await resolve(entry.id, { resolved: 'yes' }, 400);
        await resolve(entry.id, { resolved: true }, 403, analytics);
        await resolve(UNKNOWN_FEEDBACK, { resolved: true }, 404);
      });
      expect(events).toEqual([]);
    });
  });

  describe('GET /v1/articles/{id}/feedback/summary', () => {
    it('counts positive, negative and unresolved entries of the article', async () => {
      const article = await publishedArticle();
      const other = await publishedArticle();
      expect((await summary(article.id)).body).toEqual({ positive: 0, negative: 0, unresolved: 0 });

      await leave(article.id, { type: 'positive' });
      const p2 = await leave(article.id, { type: 'positive' });
      await leave(article.id, { type: 'negative' });
      const n2 = await leave(article.id, { type: 'negative' });
      await leave(article.id, { type: 'negative' });
      await leave(other.id, { type: 'negative' });
      await resolve(p2.id, { resolved: true });
      await resolve(n2.id, { resolved: true });

      const res = await summary(article.id);
      expect(res.body).toEqual({ positive: 2, negative: 3, unresolved: 3 });
      expect(Object.keys(res.body).sort()).toEqual(['negative', 'positive', 'unresolved']);
      expect((await summary(other.id)).body).toEqual({ positive: 0, negative: 1, unresolved: 1 });
    });

    it('an unknown or trashed article is 404 not_found; a draft is 404 to a key that may not see drafts, a (zero) summary to one that may', async () => {
      const res = await summary(UNKNOWN_ARTICLE, 404);
      expect(res.body).toMatchObject({ code: 'not_found' });
      const draft = await createArticle();
      // analytics:read alone sees only published articles: a 200 would tell it that the draft exists.
      expect((await summary(draft.id, 404)).body).toMatchObject({ code: 'not_found' });
      expect((await summary(draft.id, 200, admin)).body).toEqual({ positive: 0, negative: 0, unresolved: 0 });
      const unpublished = await publishedArticle();
      await submit(unpublished.id, { type: 'negative', feedback: 'Gone soon' });
      await unpublish(unpublished.id);
      expect((await summary(unpublished.id, 404)).body).toMatchObject({ code: 'not_found' });
      expect((await summary(unpublished.id, 200, admin)).body).toEqual({ positive: 0, negative: 1, unresolved: 1 });
      const gone = await publishedArticle();
      await submit(gone.id, { type: 'negative', feedback: 'Outdated' });
      await trash(gone.id);
      expect((await summary(gone.id, 404)).body).toMatchObject({ code: 'not_found' });
    });

    it('needs analytics:read: content:read and content:write are 403; no key is 401', async () => {
      const article = await publishedArticle();
      for (const key of [reader, writer]) {
        const res = await summary(article.id, 403, key);
        expect(res.body).toMatchObject({ code: 'insufficient_scope', error: expect.stringContaining('analytics:read') });
      }
      const anonymous = await t.http.get(`/v1/articles/${article.id}/feedback/summary`);
      expect(outcome(anonymous)).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    });
  });

  describe('public articles (no key)', () => {
    let section: string;
    let collection: string;
    let inCollection: Article;
    let inSection: Article;
    let draft: Article;
    let trashed: Article;
    let unpublished: Article;
    let pending: Article;
    let pendingLiveTitle: string;

    async function publicList(query: Record<string, string | number> = {}): Promise<Page<Json>> {
      const res = await t.http.get('/v1/public/articles').query(query);
      expect(outcome(res)).toMatchObject({ status: 200 });
      expect(Object.keys(res.body).sort()).toEqual(['has_more', 'next_cursor', 'results']);
      return res.body as Page<Json>;
    }

    async function publicAll(query: Record<string, string> = {}, pageSize = 100): Promise<Json[]> {
      const items: Json[] = [];
      let cursor: string | null = null;
      do {
        const current: Page<Json> = await publicList({ page_size: pageSize, ...query, ...(cursor ? { start_cursor: cursor } : {}) });
        items.push(...current.results);
        cursor = current.next_cursor;
        expect(items.length).toBeLessThan(10_000);
      } while (cursor);
      return items;
    }

    beforeAll(async () => {
      section = (await t.http.post('/v1/sections').set(bearer(editor)).send({ name: uniqueTitle('Public section') }).expect(201)).body.id;
      collection = (await t.http.post('/v1/collections').set(bearer(editor)).send({ title: uniqueTitle('Public collection'), sectionId: section }).expect(201)).body.id;
      inCollection = await publishedArticle({ sectionId: section, collectionId: collection, markdown: 'In the **collection**' });
      inSection = await publishedArticle({ sectionId: section, markdown: 'In the section' });
      draft = await createArticle({ sectionId: section, collectionId: collection });
      trashed = await publishedArticle({ sectionId: section, collectionId: collection });
      await trash(trashed.id);
      unpublished = await publishedArticle({ sectionId: section, collectionId: collection });
      await unpublish(unpublished.id);
      pendingLiveTitle = uniqueTitle('Live title');
      pending = await publishedArticle({ sectionId: section, collectionId: collection, title: pendingLiveTitle, markdown: 'Live **body**' });
      await editDraft(pending.id, { title: uniqueTitle('Draft title'), markdown: 'Draft body' });
    });

    it('GET /v1/public/articles/{id} serves a published article with contentHtml, the live content not the pending draft', async () => {
      const res = await t.http.get(`/v1/public/articles/${inCollection.id}`);
      expect(outcome(res)).toMatchObject({ status: 200 });
      expect(Object.keys(res.body).sort()).toEqual(ARTICLE_KEYS);
      expect(res.body).toMatchObject({ id: inCollection.id, title: inCollection.title, status: 'published', sectionId: section, collectionId: collection });
      expect(res.body.contentHtml).toContain('<strong>collection</strong>');
      expect(res.body.url).toMatch(/^http:\/\/help\.test\/articles\//);

      const live = await t.http.get(`/v1/public/articles/${pending.id}`);
      expect(outcome(live)).toMatchObject({ status: 200, body: { id: pending.id, title: pendingLiveTitle, status: 'published' } });
      expect(live.body.contentHtml).toContain('<strong>body</strong>');
      expect(live.body.contentHtml).not.toContain('Draft body');
      expect(live.body).not.toHaveProperty('draft_id');
    });

    it('GET /v1/public/articles/{id}: draft, unpublished, trashed and unknown articles are 404', async () => {
      for (const id of [draft.id, unpublished.id, trashed.id, UNKNOWN_ARTICLE]) {
        const res = await t.http.get(`/v1/public/articles/${id}`);
        expect(outcome(res)).toMatchObject({ status: 404, body: { code: 'not_found' } });
      }
    });

    it('GET /v1/public/articles lists published articles only, newest first, with contentHtml and live content', async () => {
      const all = await publicAll();
      const ids = all.map((a) => a.id);
      expect(ids).toEqual(expect.arrayContaining([inCollection.id, inSection.id, pending.id]));
      for (const hidden of [draft.id, trashed.id, unpublished.id]) expect(ids).not.toContain(hidden);
      for (const article of all) {
        expect(article.status).toBe('published');
        expect(Object.keys(article).sort()).toEqual(ARTICLE_KEYS);
        expect(typeof article.contentHtml).toBe('string');
      }
      const times = all.map((a) => Date.parse(a.createdAt as string));
      expect(times).toEqual([...times].sort((x, y) => y - x));
      const live = all.find((a) => a.id === pending.id)!;
      expect(live.title).toBe(pendingLiveTitle);
      expect(live.contentHtml).not.toContain('Draft body');
    });

    it('filters collection_id and section_id', async () => {
      const byCollection = (await publicAll({ collection_id: collection })).map((a) => a.id);
      expect(byCollection).toEqual([pending.id, inCollection.id]);
      const bySection = (await publicAll({ section_id: section })).map((a) => a.id);
      expect(bySection).toEqual([pending.id, inSection.id, inCollection.id]);
      const both = (await publicAll({ section_id: section, collection_id: collection })).map((a) => a.id);
      expect(both).toEqual([pending.id, inCollection.id]);
      expect(await publicAll({ section_id: general, collection_id: collection })).toEqual([]);
    });

    it('pages with page_size; bad page_size is 400; a bad cursor is 400 invalid_cursor', async () => {
      const first = await publicList({ section_id: section, page_size: 2 });
      expect(first.results.map((a) => a.id)).toEqual([pending.id, inSection.id]);
      expect(first.has_more).toBe(true);
      const second = await publicList({ section_id: section, page_size: 2, start_cursor: first.next_cursor! });
      expect(second.results.map((a) => a.id)).toEqual([inCollection.id]);
      expect(second.has_more).toBe(false);
      expect(second.next_cursor).toBeNull();
      const badSize = await t.http.get('/v1/public/articles').query({ page_size: 0 });
      expect(outcome(badSize)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      const badCursor = await t.http.get('/v1/public/articles').query({ start_cursor: 'nope' });
      expect(outcome(badCursor)).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } });
    });
  });

});

describe('public feedback rate limit (per client IP)', () => {
  const LIMIT = 3;
  let t: TestApp;
  let key: string;
  let articleId: string;
  let otherArticleId: string;
  let db: pg.Client;

  beforeAll(async () => {
    t = await startTestApp({ env: { ...NO_LIMITS, RATE_LIMIT_PUBLIC_FEEDBACK_PER_MINUTE: String(LIMIT) } });
    key = await t.key();
    db = new pg.Client({ connectionString: t.databaseUrl! });
    await db.connect();
    const general = await defaultSectionId(t, key);
    articleId = (await t.http.post('/v1/articles').set(bearer(key)).send({ title: 'Limited', sectionId: general, markdown: 'x', publish: true }).expect(201)).body.id;
    otherArticleId = (await t.http.post('/v1/articles').set(bearer(key)).send({ title: 'Also limited', sectionId: general, markdown: 'x', publish: true }).expect(201)).body.id;
  });
  afterAll(async () => {
    await db?.end();
    await t?.close();
  });

  it(`lets ${LIMIT} through, then 429 rate_limited with Retry-After; an API key does not bypass it; other articles share the budget`, async () => {
    // The window is a fixed minute of the (in-process) clock: start well inside one so all requests share it.
    while (Date.now() % 60_000 > 50_000) await new Promise((resolve) => setTimeout(resolve, 100));
    const body = { type: 'positive', feedback: 'Thanks' };
    const remaining: string[] = [];
    for (let i = 0; i < LIMIT; i++) {
      // One of the allowed ones carries an API key: it counts against the same per-IP budget.
      const res = await (i === 1 ? t.http.post(`/v1/public/articles/${articleId}/feedback`).set(bearer(key)) : t.http.post(`/v1/public/articles/${articleId}/feedback`)).send(body);
      expect(outcome(res)).toMatchObject({ status: 201 });
      expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
      expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
      expect(res.headers['ratelimit-policy']).toBe(`"default";q=${LIMIT};w=60`);
      expect(res.headers['ratelimit']).toMatch(/^"default";r=\d+;t=\d+$/);
      expect(res.headers['retry-after']).toBeUndefined();
      remaining.push(res.headers['x-ratelimit-remaining'] as string);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const stored = Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM feedback')).rows[0]!.n);
    expect(stored).toBe(LIMIT);

    const limited = await t.http.post(`/v1/public/articles/${articleId}/feedback`).send(body);
    expect(outcome(limited)).toMatchObject({ status: 429, body: { code: 'rate_limited', error: expect.any(String) } });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers['x-ratelimit-limit']).toBe(String(LIMIT));
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(limited.headers['x-ratelimit-reset']).toMatch(/^\d+$/);

    const withKey = await t.http.post(`/v1/public/articles/${articleId}/feedback`).set(bearer(key)).send(body);
    expect(outcome(withKey)).toMatchObject({ status: 429, body: { code: 'rate_limited' } });
    expect(withKey.headers['retry-after']).toMatch(/^\d+$/);

    const elsewhere = await t.http.post(`/v1/public/articles/${otherArticleId}/feedback`).send(body);
    expect(outcome(elsewhere)).toMatchObject({ status: 429, body: { code: 'rate_limited' } });

    // Nothing more was stored; public reads and authenticated endpoints are not under this budget.
    expect(Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM feedback')).rows[0]!.n)).toBe(LIMIT);
    expect((await t.http.get(`/v1/public/articles/${articleId}`)).status).toBe(200);
    expect((await t.http.get('/v1/feedback').set(bearer(key))).status).toBe(200);
  });
});
