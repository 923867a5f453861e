import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import type { Response } from 'supertest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { clockPast } from '../support/clock.js';
import { errorBody } from '../support/errors.js';
import { ISO_MS, USER_ID } from '../support/formats.js';
import { outcome } from '../support/outcome.js';
import { uniqueEmail } from '../support/unique.js';

jest.setTimeout(60_000);

const UNKNOWN_USER = 'hcusr_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';
const USER_KEYS = ['createdAt', 'email', 'id', 'name', 'updatedAt'];

interface User {
  id: string;
  name: string | null;
  email: string;
  createdAt: string;
  updatedAt: string;
}

interface Page<T> {
  results: T[];
  has_more: boolean;
  next_cursor: string | null;
}

describe('help center users', () => {
  let t: TestApp;
  let db: pg.Client;
  /** content:read only. */
  let reader: string;
  /** content:write only (implies content:read). */
  let writer: string;
  /** webhooks:manage only. */
  let webhooksOnly: string;
  /** analytics:read only. */
  let analytics: string;

  async function create(body: Record<string, unknown>, status = 201, key = writer): Promise<Response> {
    const res = await t.http.post('/v1/users').set(bearer(key)).send(body);
    expect(outcome(res)).toMatchObject({ status });
    return res;
  }

  async function createUser(email: string, name: string | null = null): Promise<User> {
    return (await create({ email, name })).body as User;
  }

  async function patch(id: string, body: Record<string, unknown>, status = 200, key = writer): Promise<Response> {
    const res = await t.http.patch(`/v1/users/${id}`).set(bearer(key)).send(body);
    expect(outcome(res)).toMatchObject({ status });
    return res;
  }

  async function page(query: Record<string, string | number>, key = writer): Promise<Page<User>> {
    const res = await t.http.get('/v1/users').query(query).set(bearer(key));
    expect(outcome(res)).toMatchObject({ status: 200 });
    expect(Object.keys(res.body).sort()).toEqual(['has_more', 'next_cursor', 'results']);
    return res.body as Page<User>;
  }

  /** Every user (all pages), newest first. */
  async function listAll(pageSize = 100): Promise<User[]> {
    const users: User[] = [];
    let cursor: string | null = null;
    do {
      const current: Page<User> = await page({ page_size: pageSize, ...(cursor ? { start_cursor: cursor } : {}) });
      users.push(...current.results);
      cursor = current.next_cursor;
      expect(users.length).toBeLessThan(10_000);
    } while (cursor);
    return users;
  }

  async function stored(id: string): Promise<Record<string, unknown> | undefined> {
    return (await db.query('SELECT id, email, name FROM help_center_users WHERE id = $1', [id])).rows[0] as Record<string, unknown> | undefined;
  }

  async function count(): Promise<number> {
    return Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM help_center_users')).rows[0]!.n);
  }

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_REQUESTS_PER_MINUTE: '100000' } });
    reader = await t.key(['content:read']);
    writer = await t.key(['content:write']);
    webhooksOnly = await t.key(['webhooks:manage']);
    analytics = await t.key(['analytics:read']);
    db = new pg.Client({ connectionString: t.databaseUrl! });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  describe('POST /v1/users', () => {
    it('creates a user: 201 { id hcusr_…, name, email lowercased, createdAt, updatedAt }', async () => {
      const res = await create({ email: 'Jane.Doe@Example.COM', name: 'Jane Doe' });
      expect(Object.keys(res.body).sort()).toEqual(USER_KEYS);
      expect(res.body).toEqual({
        id: expect.stringMatching(USER_ID),
        name: 'Jane Doe',
        email: 'jane.doe@example.com',
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      });
      expect(res.body.updatedAt).toBe(res.body.createdAt);
      expect(await stored(res.body.id)).toEqual({ id: res.body.id, email: 'jane.doe@example.com', name: 'Jane Doe' });
      // And it reads back the same.
      const read = await t.http.get(`/v1/users/${res.body.id}`).set(bearer(writer));
      expect(outcome(read)).toEqual({ status: 200, body: res.body });
    });

    it('name is optional (null when omitted) and may be null', async () => {
      const omitted = await create({ email: uniqueEmail('noname') });
      expect(omitted.body.name).toBeNull();
      const explicit = await create({ email: uniqueEmail('nullname'), name: null });
      expect(explicit.body.name).toBeNull();
    });

    it('an invalid, missing or non-string email is 400 invalid_request naming email; nothing stored', async () => {
      const before = await count();
      for (const email of ['not-an-email', 'a@b', 'two@@example.com', 'spa ce@example.com', '', 42, null]) {
        const res = await create({ email, name: 'X' }, 400);
        expect(res.body).toMatchObject({ code: 'invalid_request', error: expect.any(String) });
        expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'email' })]));
      }
      await create({ name: 'No email' }, 400);
      expect(await count()).toBe(before);
    });

    it('a non-string name or an unknown field is 400', async () => {
      const res = await create({ email: uniqueEmail('badname'), name: 7 }, 400);
      expect(res.body).toMatchObject({ code: 'invalid_request' });
      const unknown = await create({ email: uniqueEmail('unknown'), name: 'X', role: 'admin' }, 400);
      expect(unknown.body).toMatchObject({ code: 'invalid_request' });
    });

    it('the same email in another case is 409 conflict; the first user is unchanged', async () => {
      const first = await createUser('Dup.User@Example.com', 'First');
      expect(first.email).toBe('dup.user@example.com');
      const before = await count();
      for (const email of ['dup.user@example.com', 'DUP.USER@EXAMPLE.COM', 'dUp.UsEr@eXaMpLe.CoM']) {
        const res = await create({ email, name: 'Second' }, 409);
        expect(res.body).toEqual(errorBody('conflict'));
      }
      expect(await count()).toBe(before);
      expect(await stored(first.id)).toEqual({ id: first.id, email: 'dup.user@example.com', name: 'First' });
    });
  });

  describe('GET /v1/users/{id}', () => {
    it('returns the user; an unknown ID is 404 not_found', async () => {
      const user = await createUser(uniqueEmail('get'), 'Getter');
      const res = await t.http.get(`/v1/users/${user.id}`).set(bearer(writer));
      expect(outcome(res)).toEqual({ status: 200, body: user });
      const unknown = await t.http.get(`/v1/users/${UNKNOWN_USER}`).set(bearer(writer));
      expect(outcome(unknown)).toMatchObject({ status: 404, body: { code: 'not_found', error: expect.any(String) } });
      const garbage = await t.http.get('/v1/users/not-an-id').set(bearer(writer));
      expect(outcome(garbage)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    });
  });

  describe('GET /v1/users', () => {
    it('is a cursor page, newest first; page_size pages through without duplicates or gaps', async () => {
      const made: User[] = [];
      for (let i = 0; i < 5; i++) {
        const user = await createUser(uniqueEmail('list'), `Lister ${i}`);
        made.push(user);
        await clockPast(user.createdAt);
      }
      const all = await listAll();
      const ids = all.map((u) => u.id);
      expect(new Set(ids).size).toBe(ids.length);
      // The newest five come first, newest first.
      expect(ids.slice(0, 5)).toEqual(made.map((u) => u.id).reverse());
      // The whole list is ordered by createdAt descending.
      const times = all.map((u) => Date.parse(u.createdAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      for (const user of all) expect(Object.keys(user).sort()).toEqual(USER_KEYS);

      // page_size 2 walks the same list.
      const first = await page({ page_size: 2 });
      expect(first.results.map((u) => u.id)).toEqual(ids.slice(0, 2));
      expect(first.has_more).toBe(true);
      expect(typeof first.next_cursor).toBe('string');
      const second = await page({ page_size: 2, start_cursor: first.next_cursor! });
      expect(second.results.map((u) => u.id)).toEqual(ids.slice(2, 4));
      const walked = await listAll(2);
      expect(walked.map((u) => u.id)).toEqual(ids);
    });

    it('the last page has has_more false and next_cursor null', async () => {
      const all = await listAll();
      const last = await page({ page_size: all.length });
      expect(last.results).toHaveLength(all.length);
      expect(last.has_more).toBe(false);
      expect(last.next_cursor).toBeNull();
    });

    it('page_size out of range or not a number is 400 invalid_request', async () => {
      for (const pageSize of ['0', '101', 'abc', '1.5']) {
        const res = await t.http.get('/v1/users').query({ page_size: pageSize }).set(bearer(writer));
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      }
    });

    it('a tampered, garbage or foreign start_cursor is 400 invalid_cursor', async () => {
      await createUser(uniqueEmail('cursor'));
      await createUser(uniqueEmail('cursor'));
      const first = await page({ page_size: 1 });
      const cursor = first.next_cursor!;
      const tampered = cursor.slice(0, -2) + (cursor.endsWith('A') ? 'BB' : 'AA');
      for (const start_cursor of ['garbage', tampered, 'x'.repeat(2000)]) {
        const res = await t.http.get('/v1/users').query({ start_cursor }).set(bearer(writer));
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } });
      }
      // A cursor of another list (collections) is refused too.
      await t.http.post('/v1/collections').set(bearer(writer)).send({ title: 'C1' }).expect(201);
      await t.http.post('/v1/collections').set(bearer(writer)).send({ title: 'C2' }).expect(201);
      const collections = await t.http.get('/v1/collections').query({ page_size: 1 }).set(bearer(reader)).expect(200);
      const foreign = await t.http.get('/v1/users').query({ start_cursor: collections.body.next_cursor }).set(bearer(writer));
      expect(outcome(foreign)).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } });
    });
  });

  describe('PATCH /v1/users/{id}', () => {
    it('changes the email (stored lowercase) and name; updatedAt moves, createdAt does not', async () => {
      const user = await createUser(uniqueEmail('patch'), 'Before');
      await clockPast(user.updatedAt);
      const res = await patch(user.id, { email: 'New.Address@Example.ORG', name: 'After' });
      expect(res.body).toEqual({ ...user, email: 'new.address@example.org', name: 'After', updatedAt: expect.stringMatching(ISO_MS) });
      expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(user.updatedAt));
      expect(await stored(user.id)).toEqual({ id: user.id, email: 'new.address@example.org', name: 'After' });
      const read = await t.http.get(`/v1/users/${user.id}`).set(bearer(writer));
      expect(outcome(read)).toEqual({ status: 200, body: res.body });
    });

    it('only the given fields change; name null clears it', async () => {
      const email = uniqueEmail('partial');
      const user = await createUser(email, 'Named');
      const renamed = await patch(user.id, { name: 'Renamed' });
      expect(renamed.body).toMatchObject({ email, name: 'Renamed' });
      const onlyEmail = await patch(user.id, { email: email.toUpperCase() });
      expect(onlyEmail.body).toMatchObject({ email, name: 'Renamed' });
      const cleared = await patch(user.id, { name: null });
      expect(cleared.body).toMatchObject({ email, name: null });
      expect(await stored(user.id)).toEqual({ id: user.id, email, name: null });
    });

    it("another user's email, in any case, is 409 conflict; nothing changes", async () => {
      const taken = await createUser(uniqueEmail('taken'), 'Owner');
      const user = await createUser(uniqueEmail('mover'), 'Mover');
      for (const email of [taken.email, taken.email.toUpperCase(), taken.email.replace('taken', 'TaKeN')]) {
        const res = await patch(user.id, { email, name: 'Changed' }, 409);
        expect(res.body).toEqual(errorBody('conflict'));
      }
      expect(await stored(user.id)).toEqual({ id: user.id, email: user.email, name: 'Mover' });
      expect(await stored(taken.id)).toEqual({ id: taken.id, email: taken.email, name: 'Owner' });
    });

    it('an invalid or null email, a non-string name and unknown fields are 400; nothing changes', async () => {
      const user = await createUser(uniqueEmail('invalid'), 'Stays');
      for (const body of [{ email: 'nope' }, { email: null }, { email: 3 }, { name: 5 }, { role: 'admin' }, { name: 'X', extra: true }]) {
        const res = await patch(user.id, body, 400);
        expect(res.body).toMatchObject({ code: 'invalid_request', error: expect.any(String) });
      }
      expect(await stored(user.id)).toEqual({ id: user.id, email: user.email, name: 'Stays' });
    });

    it('an unknown user is 404 not_found', async () => {
      const res = await patch(UNKNOWN_USER, { name: 'Ghost' }, 404);
      expect(res.body).toMatchObject({ code: 'not_found' });
    });
  });

  describe('scopes', () => {
    it('writes need content:write: content:read (or analytics:read) is 403 insufficient_scope naming it', async () => {
      const user = await createUser(uniqueEmail('scoped'), 'Scoped');
      const before = await count();
      for (const key of [reader, analytics, webhooksOnly]) {
        const post = await t.http.post('/v1/users').set(bearer(key)).send({ email: uniqueEmail('denied') });
        expect(outcome(post)).toMatchObject({ status: 403, body: { code: 'insufficient_scope', error: expect.stringContaining('content:write') } });
        const patched = await t.http.patch(`/v1/users/${user.id}`).set(bearer(key)).send({ name: 'Denied' });
        expect(outcome(patched)).toMatchObject({ status: 403, body: { code: 'insufficient_scope', error: expect.stringContaining('content:write') } });
      }
      expect(await count()).toBe(before);
      expect(await stored(user.id)).toMatchObject({ name: 'Scoped' });
    });

    it('reads need content:write too (names and emails of people): content:read, analytics:read and webhooks:manage keys are 403', async () => {
      const user = await createUser(uniqueEmail('reads'));
      for (const path of ['/v1/users', `/v1/users/${user.id}`]) {
        for (const key of [reader, analytics, webhooksOnly]) {
          const denied = await t.http.get(path).set(bearer(key));
          expect(outcome(denied)).toMatchObject({ status: 403, body: { code: 'insufficient_scope', error: expect.stringContaining('content:write') } });
          expect(JSON.stringify(denied.body)).not.toContain(user.email);
        }
        const viaWrite = await t.http.get(path).set(bearer(writer));
        expect(outcome(viaWrite)).toMatchObject({ status: 200 });
      }
    });

    it('without a key (or with an unknown one) every operation is 401 unauthorized with WWW-Authenticate', async () => {
      const user = await createUser(uniqueEmail('anon'));
      const requests = [
        () => t.http.post('/v1/users').send({ email: uniqueEmail('anon') }),
        () => t.http.get('/v1/users'),
        () => t.http.get(`/v1/users/${user.id}`),
        () => t.http.patch(`/v1/users/${user.id}`).send({ name: 'Anon' }),
        () => t.http.get('/v1/users').set(bearer('hck_' + 'x'.repeat(40))),
      ];
      for (const request of requests) {
        const res = await request();
        expect(outcome(res)).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      }
    });
  });
});
