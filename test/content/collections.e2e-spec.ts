import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { clockPast } from '../support/clock.js';
import { errorBody } from '../support/errors.js';
import { COLLECTION_ID, ISO_MS, ULID, UNKNOWN_COLLECTION, UNKNOWN_SECTION } from '../support/formats.js';
import { outcome } from '../support/outcome.js';

const SHORT_ID = /^[a-z0-9][a-z0-9-]{1,63}$/;

interface CollectionBody {
  id: string;
  helpdeskId: string;
  sectionId: string | null;
  parentCollectionId: string | null;
  title: string;
  subtitle: string | null;
  shortId: string;
  createdAt: string;
  updatedAt: string;
  translations: Array<Record<string, unknown>>;
}

describe('collections', () => {
  let t: TestApp;
  let key: string;
  let reader: string;
  let helpdeskId: string;
  let db: pg.Client;
  let s1: string;
  let s2: string;

  async function snapshotTable(): Promise<unknown[]> {
    return (await db.query('SELECT * FROM collections ORDER BY id')).rows;
  }

  async function create(body: Record<string, unknown>): Promise<CollectionBody> {
    const res = await t.http.post('/v1/collections').set(bearer(key)).send(body);
    expect(outcome(res)).toMatchObject({ status: 201 });
    return res.body;
  }

  async function get(id: string): Promise<CollectionBody> {
    return (await t.http.get(`/v1/collections/${id}`).set(bearer(reader)).expect(200)).body;
  }

  async function move(id: string, body: Record<string, unknown>, status = 200) {
    const res = await t.http.post(`/v1/collections/${id}/move`).set(bearer(key)).send(body);
    expect(outcome(res)).toMatchObject({ status });
    return res.body;
  }

  async function section(name: string): Promise<string> {
    return (await t.http.post('/v1/sections').set(bearer(key)).send({ name }).expect(201)).body.id;
  }

  beforeAll(async () => {
    t = await startTestApp({ env: { HELPDESK_LANGUAGES: 'en,fr,de', RATE_LIMIT_REQUESTS_PER_MINUTE: '100000' } });
    key = await t.key(['content:write']);
    reader = await t.key(['content:read']);
    helpdeskId = (await t.http.get('/v1/helpdesk').set(bearer(reader)).expect(200)).body.id;
    db = new pg.Client({ connectionString: t.databaseUrl! });
    await db.connect();
    s1 = await section('One');
    s2 = await section('Two');
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  describe('create and read', () => {
    it('POST with a title only → 201, field by field: no section, no parent, no subtitle, a generated shortId', async () => {
      const res = await t.http.post('/v1/collections').set(bearer(key)).send({ title: 'Getting started' }).expect(201);
      expect(Object.keys(res.body).sort()).toEqual(
        ['createdAt', 'helpdeskId', 'id', 'parentCollectionId', 'sectionId', 'shortId', 'subtitle', 'title', 'translations', 'updatedAt'],
      );
      expect(res.body).toEqual({
        id: expect.stringMatching(COLLECTION_ID),
        helpdeskId,
        sectionId: null,
        parentCollectionId: null,
        title: 'Getting started',
        subtitle: null,
        shortId: expect.stringMatching(SHORT_ID),
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
        translations: [],
      });
      expect(res.body.updatedAt).toBe(res.body.createdAt);
      expect(await get(res.body.id)).toEqual(res.body);
    });

    it('POST with every field stores them', async () => {
      const body = { title: 'Billing', subtitle: 'Invoices and payments', sectionId: s1, shortId: 'billing' };
      const created = await create(body);
      expect(created).toMatchObject({ ...body, parentCollectionId: null, helpdeskId });
      const [row] = (await db.query('SELECT title, subtitle, section_id, short_id FROM collections WHERE id = $1', [created.id])).rows;
      expect(row).toEqual({ title: 'Billing', subtitle: 'Invoices and payments', section_id: s1, short_id: 'billing' });
    });

    it('subtitle and sectionId may be null explicitly', async () => {
      expect(await create({ title: 'Nulls', subtitle: null, sectionId: null, parentCollectionId: null })).toMatchObject({
        subtitle: null,
        sectionId: null,
        parentCollectionId: null,
      });
    });

    it('generated shortIds are unique and match the pattern', async () => {
      const created = await Promise.all(Array.from({ length: 30 }, (_, i) => create({ title: `Generated ${i}` })));
      const shortIds = created.map((c) => c.shortId);
      for (const shortId of shortIds) expect(shortId).toMatch(SHORT_ID);
      expect(new Set(shortIds).size).toBe(shortIds.length);
      const stored = (await db.query('SELECT short_id FROM collections')).rows.map((r) => r.short_id as string);
      expect(new Set(stored).size).toBe(stored.length);
    });

    it('a shortId of 2 and of 64 characters, with dashes and digits, is accepted', async () => {
      expect((await create({ title: 'Two', shortId: '9z' })).shortId).toBe('9z');
      const long = `a${'-b'.repeat(31)}c`;
      expect(long).toHaveLength(64);
      expect((await create({ title: 'Long', shortId: long })).shortId).toBe(long);
    });

    it('a shortId that is taken → 409 conflict, nothing written', async () => {
      await create({ title: 'First', shortId: 'taken-one' });
      const before = await snapshotTable();
      const res = await t.http.post('/v1/collections').set(bearer(key)).send({ title: 'Second', shortId: 'taken-one' }).expect(409);
      expect(res.body).toEqual(errorBody('conflict'));
      expect(await snapshotTable()).toEqual(before);
    });

    it('concurrent creates with the same shortId: one 201, the others 409 conflict, one row', async () => {
      const responses = await Promise.all([1, 2, 3, 4].map((i) => t.http.post('/v1/collections').set(bearer(key)).send({ title: `Racer ${i}`, shortId: 'raced' })));
      expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
      for (const res of responses.filter((r) => r.status === 409)) expect(res.body.code).toBe('conflict');
      expect((await db.query("SELECT id FROM collections WHERE short_id = 'raced'")).rows).toEqual([{ id: responses.find((r) => r.status === 201)!.body.id }]);
    });

    it('GET of an unknown or malformed ID → 404 not_found', async () => {
      for (const id of [UNKNOWN_COLLECTION, 'whatever', UNKNOWN_SECTION]) {
        const res = await t.http.get(`/v1/collections/${id}`).set(bearer(reader)).expect(404);
        expect(res.body).toEqual(errorBody('not_found'));
      }
    });

    it('needs a key to read and content:write to create', async () => {
      await t.http.get('/v1/collections').expect(401);
      const before = await snapshotTable();
      const res = await t.http.post('/v1/collections').set(bearer(reader)).send({ title: 'Nope' }).expect(403);
      expect(res.body.code).toBe('insufficient_scope');
      expect(await snapshotTable()).toEqual(before);
    });

    describe('bad input → 400 invalid_request, nothing written', () => {
      const cases: Array<[string, unknown]> = [
        ['no title', {}],
        ['an empty title', { title: '' }],
        ['a null title', { title: null }],
        ['a title over 255 characters', { title: 't'.repeat(256) }],
        ['a title that is not a string', { title: 5 }],
        ['a subtitle over 1000 characters', { title: 'T', subtitle: 's'.repeat(1001) }],
        ['a subtitle that is not a string', { title: 'T', subtitle: { text: 'x' } }],
        ['a sectionId that is not a string', { title: 'T', sectionId: 1 }],
        ['a parentCollectionId that is not a string', { title: 'T', parentCollectionId: true }],
        ['a shortId in upper case', { title: 'T', shortId: 'Upper' }],
        ['a one-character shortId', { title: 'T', shortId: 'a' }],
        ['an empty shortId', { title: 'T', shortId: '' }],
        ['a shortId starting with a dash', { title: 'T', shortId: '-abc' }],
        ['a shortId with an underscore', { title: 'T', shortId: 'a_b' }],
        ['a shortId over 64 characters', { title: 'T', shortId: 'a'.repeat(65) }],
        ['a shortId that is a number', { title: 'T', shortId: 1234 }],
        ['an unknown field', { title: 'T', slug: 't' }],
        ['a snake_case field', { title: 'T', section_id: 'sect_x' }],
        ['translations in the body', { title: 'T', translations: [] }],
        ['an unknown section', { title: 'T', sectionId: UNKNOWN_SECTION }],
        ['an unknown parent collection', { title: 'T', parentCollectionId: UNKNOWN_COLLECTION }],
      ];
      it.each(cases)('%s', async (_label, body) => {
        const before = await snapshotTable();
        const res = await t.http.post('/v1/collections').set(bearer(key)).send(body as object);
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request', error: expect.any(String) } });
        expect(await snapshotTable()).toEqual(before);
      });

      it('a title of 255 and a subtitle of 1000 characters are accepted', async () => {
        const created = await create({ title: 't'.repeat(255), subtitle: 's'.repeat(1000) });
        expect(created.title).toHaveLength(255);
        expect(created.subtitle).toHaveLength(1000);
      });
    });
  });

  describe('nesting', () => {
    it('a nested collection takes its parent\'s section', async () => {
      const parent = await create({ title: 'Parent', sectionId: s1 });
      const child = await create({ title: 'Child', parentCollectionId: parent.id });
      expect(child).toMatchObject({ parentCollectionId: parent.id, sectionId: s1 });
      const grandchild = await create({ title: 'Grandchild', parentCollectionId: child.id });
      expect(grandchild).toMatchObject({ parentCollectionId: child.id, sectionId: s1 });
    });

    it('the parent\'s own section may be given explicitly', async () => {
      const parent = await create({ title: 'Explicit parent', sectionId: s2 });
      expect(await create({ title: 'Explicit child', parentCollectionId: parent.id, sectionId: s2 })).toMatchObject({ sectionId: s2 });
    });

    it('a nested collection under a parent without a section has none', async () => {
      const parent = await create({ title: 'Unsectioned parent' });
      expect(await create({ title: 'Unsectioned child', parentCollectionId: parent.id })).toMatchObject({ sectionId: null });
    });

    it('a section other than the parent\'s → 400, nothing written', async () => {
      const parent = await create({ title: 'Strict parent', sectionId: s1 });
      const before = await snapshotTable();
      for (const sectionId of [s2, null]) {
        const res = await t.http.post('/v1/collections').set(bearer(key)).send({ title: 'Stray', parentCollectionId: parent.id, sectionId });
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      }
      expect(await snapshotTable()).toEqual(before);
    });
  });

  describe('update', () => {
    it('PATCH changes title, subtitle and shortId; keeps id, placement and createdAt; moves updatedAt', async () => {
      const parent = await create({ title: 'Patch parent', sectionId: s1 });
      const c = await create({ title: 'Old', subtitle: 'Old sub', parentCollectionId: parent.id, shortId: 'patch-me' });
      await clockPast(c.updatedAt);
      const res = await t.http.patch(`/v1/collections/${c.id}`).set(bearer(key)).send({ title: 'New', subtitle: 'New sub', shortId: 'patched' }).expect(200);
      expect(res.body).toEqual({ ...c, title: 'New', subtitle: 'New sub', shortId: 'patched', updatedAt: expect.stringMatching(ISO_MS) });
      expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(c.updatedAt));
      expect(await get(c.id)).toEqual(res.body);
      // The old shortId is free again.
      expect((await create({ title: 'Reuse', shortId: 'patch-me' })).shortId).toBe('patch-me');
    });

    it('PATCH subtitle: null clears it; one field leaves the others alone', async () => {
      const c = await create({ title: 'Keep title', subtitle: 'Drop me' });
      const res = await t.http.patch(`/v1/collections/${c.id}`).set(bearer(key)).send({ subtitle: null }).expect(200);
      expect(res.body).toMatchObject({ title: 'Keep title', subtitle: null, shortId: c.shortId });
    });

    it('PATCH to its own shortId is fine; to another collection\'s → 409 conflict, nothing changed', async () => {
      const a = await create({ title: 'A', shortId: 'owner-a' });
      const b = await create({ title: 'B', shortId: 'owner-b' });
      await t.http.patch(`/v1/collections/${a.id}`).set(bearer(key)).send({ shortId: 'owner-a' }).expect(200);
      const before = await get(b.id);
      const res = await t.http.patch(`/v1/collections/${b.id}`).set(bearer(key)).send({ shortId: 'owner-a', title: 'B2' }).expect(409);
      expect(res.body).toEqual(errorBody('conflict'));
      expect(await get(b.id)).toEqual(before);
    });

    it('PATCH of an unknown collection → 404 not_found', async () => {
      const res = await t.http.patch(`/v1/collections/${UNKNOWN_COLLECTION}`).set(bearer(key)).send({ title: 'X' }).expect(404);
      expect(res.body.code).toBe('not_found');
    });

    it('PATCH needs content:write', async () => {
      const c = await create({ title: 'Guarded' });
      await t.http.patch(`/v1/collections/${c.id}`).set(bearer(reader)).send({ title: 'X' }).expect(403);
      expect(await get(c.id)).toEqual(c);
    });

    describe('bad input → 400 invalid_request, nothing changed', () => {
      const cases: Array<[string, unknown]> = [
        ['an empty title', { title: '' }],
        ['a null title', { title: null }],
        ['a title over 255 characters', { title: 'x'.repeat(256) }],
        ['a subtitle over 1000 characters', { subtitle: 'x'.repeat(1001) }],
        ['a null shortId', { shortId: null }],
        ['an invalid shortId', { shortId: 'Not Valid' }],
        ['a sectionId (placement changes go through move)', { sectionId: UNKNOWN_SECTION }],
        ['a parentCollectionId', { parentCollectionId: null }],
        ['an unknown field', { color: 'red' }],
      ];
      it.each(cases)('%s', async (_label, body) => {
        const c = await create({ title: 'Stable', subtitle: 'Stable sub' });
        const res = await t.http.patch(`/v1/collections/${c.id}`).set(bearer(key)).send(body as object);
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
        expect(await get(c.id)).toEqual(c);
      });
    });
  });

  describe('move', () => {
    /** root (s1) → child → grandchild → great; root → sibling */
    async function tree() {
      const root = await create({ title: 'Root', sectionId: s1 });
      const child = await create({ title: 'Child', parentCollectionId: root.id });
      const grandchild = await create({ title: 'Grandchild', parentCollectionId: child.id });
      const great = await create({ title: 'Great-grandchild', parentCollectionId: grandchild.id });
      const sibling = await create({ title: 'Sibling', parentCollectionId: root.id });
      return { root, child, grandchild, great, sibling };
    }

    it('section_id moves the whole subtree: every descendant takes the new section, the nesting stays', async () => {
      const { root, child, grandchild, great, sibling } = await tree();
      const outsider = await create({ title: 'Outsider', sectionId: s1 });
      await clockPast(root.updatedAt);
      const moved = await move(root.id, { section_id: s2 });
      expect(moved).toEqual({ ...root, sectionId: s2, updatedAt: expect.stringMatching(ISO_MS) });
      expect(Date.parse(moved.updatedAt)).toBeGreaterThan(Date.parse(root.updatedAt));
      for (const c of [child, grandchild, great, sibling]) {
        const now = await get(c.id);
        expect(now).toMatchObject({ sectionId: s2, parentCollectionId: c.parentCollectionId, title: c.title });
      }
      expect((await get(outsider.id)).sectionId).toBe(s1);
      const inS2 = (await t.http.get('/v1/collections').query({ section_id: s2, page_size: 100 }).set(bearer(reader)).expect(200)).body.results.map(
        (c: CollectionBody) => c.id,
      );
      expect(inS2).toEqual(expect.arrayContaining([root.id, child.id, grandchild.id, great.id, sibling.id]));
    });

    it('section_id: null takes the subtree out of any section', async () => {
      const { root, child, great } = await tree();
      expect(await move(root.id, { section_id: null })).toMatchObject({ sectionId: null, parentCollectionId: null });
      expect((await get(child.id)).sectionId).toBeNull();
      expect((await get(great.id)).sectionId).toBeNull();
    });

    it('parent_collection_id nests a collection (and its subtree) under another, taking that parent\'s section', async () => {
      const { child, grandchild, great } = await tree();
      const host = await create({ title: 'Host', sectionId: s2 });
      expect(await move(child.id, { parent_collection_id: host.id })).toMatchObject({ parentCollectionId: host.id, sectionId: s2 });
      expect(await get(grandchild.id)).toMatchObject({ parentCollectionId: child.id, sectionId: s2 });
      expect(await get(great.id)).toMatchObject({ parentCollectionId: grandchild.id, sectionId: s2 });
    });

    it('parent_collection_id: null takes a nested collection to the top level of its section', async () => {
      const { root, grandchild, great } = await tree();
      expect(await move(grandchild.id, { parent_collection_id: null })).toMatchObject({ parentCollectionId: null, sectionId: s1 });
      expect(await get(great.id)).toMatchObject({ parentCollectionId: grandchild.id, sectionId: s1 });
      expect((await get(root.id)).parentCollectionId).toBeNull();
    });

    it('section_id alone on a nested collection takes it out of its parent into that section, with its subtree', async () => {
      const { child, grandchild, great } = await tree();
      expect(await move(grandchild.id, { section_id: s2 })).toMatchObject({ parentCollectionId: null, sectionId: s2 });
      expect(await get(great.id)).toMatchObject({ parentCollectionId: grandchild.id, sectionId: s2 });
      expect(await get(child.id)).toMatchObject({ sectionId: s1 });
    });

    it('both fields, consistent with each other, are accepted', async () => {
      const { sibling } = await tree();
      const host = await create({ title: 'Host 2', sectionId: s2 });
      expect(await move(sibling.id, { section_id: s2, parent_collection_id: host.id })).toMatchObject({ parentCollectionId: host.id, sectionId: s2 });
    });

    describe('refused moves → 400 and nothing changed', () => {
      const cases: Array<[string, (tr: Awaited<ReturnType<typeof tree>>) => [string, Record<string, unknown>]]> = [
        ['under itself', (tr) => [tr.root.id, { parent_collection_id: tr.root.id }]],
        ['under its child', (tr) => [tr.root.id, { parent_collection_id: tr.child.id }]],
        ['under its grandchild', (tr) => [tr.root.id, { parent_collection_id: tr.grandchild.id }]],
        ['under its great-grandchild', (tr) => [tr.child.id, { parent_collection_id: tr.great.id }]],
        ['under a descendant, with that descendant\'s section', (tr) => [tr.root.id, { parent_collection_id: tr.great.id, section_id: s1 }]],
        ['to a section other than the new parent\'s', (tr) => [tr.sibling.id, { parent_collection_id: tr.child.id, section_id: s2 }]],
        ['to an unknown section', (tr) => [tr.child.id, { section_id: UNKNOWN_SECTION }]],
        ['under an unknown collection', (tr) => [tr.child.id, { parent_collection_id: UNKNOWN_COLLECTION }]],
        ['with an empty body', (tr) => [tr.child.id, {}]],
        ['with camelCase fields', (tr) => [tr.child.id, { sectionId: s2 }]],
        ['with an unknown field', (tr) => [tr.child.id, { section_id: s2, position: 1 }]],
        ['with a section_id that is not a string', (tr) => [tr.child.id, { section_id: 3 }]],
        ['with a parent_collection_id that is not a string', (tr) => [tr.child.id, { parent_collection_id: ['x'] }]],
      ];
      it.each(cases)('%s', async (_label, pick) => {
        const tr = await tree();
        const [id, body] = pick(tr);
        const before = await snapshotTable();
        const res = await t.http.post(`/v1/collections/${id}/move`).set(bearer(key)).send(body);
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request', error: expect.any(String) } });
        expect(await snapshotTable()).toEqual(before);
      });
    });

    it('concurrent opposite moves (a under b, b under a) never form a cycle', async () => {
      const a = await create({ title: 'Cycle A', sectionId: s1 });
      const b = await create({ title: 'Cycle B', sectionId: s1 });
      const [ab, ba] = await Promise.all([
        t.http.post(`/v1/collections/${a.id}/move`).set(bearer(key)).send({ parent_collection_id: b.id }),
        t.http.post(`/v1/collections/${b.id}/move`).set(bearer(key)).send({ parent_collection_id: a.id }),
      ]);
      expect([ab.status, ba.status].sort()).toEqual([200, 400]);
      const parents = [(await get(a.id)).parentCollectionId, (await get(b.id)).parentCollectionId];
      expect(parents.filter((p) => p !== null)).toHaveLength(1);
    });

    it('move of an unknown collection → 404 not_found; needs content:write', async () => {
      const res = await t.http.post(`/v1/collections/${UNKNOWN_COLLECTION}/move`).set(bearer(key)).send({ section_id: s1 }).expect(404);
      expect(res.body.code).toBe('not_found');
      const c = await create({ title: 'Scoped move', sectionId: s1 });
      await t.http.post(`/v1/collections/${c.id}/move`).set(bearer(reader)).send({ section_id: s2 }).expect(403);
      expect((await get(c.id)).sectionId).toBe(s1);
    });
  });

  describe('delete', () => {
    it('DELETE of a leaf → 200 {id, deleted: true}; then it is gone, translations too', async () => {
      const c = await create({ title: 'Leaf', sectionId: s1 });
      await t.http.put(`/v1/collections/${c.id}/translations/fr`).set(bearer(key)).send({ title: 'Feuille' }).expect(201);
      const res = await t.http.delete(`/v1/collections/${c.id}`).set(bearer(key)).expect(200);
      expect(res.body).toEqual({ id: c.id, deleted: true });
      expect((await t.http.get(`/v1/collections/${c.id}`).set(bearer(reader)).expect(404)).body.code).toBe('not_found');
      expect((await db.query('SELECT id FROM collection_translations WHERE collection_id = $1', [c.id])).rows).toEqual([]);
      expect((await t.http.delete(`/v1/collections/${c.id}`).set(bearer(key)).expect(404)).body.code).toBe('not_found');
    });

    it('DELETE of a collection with child collections → 409 invalid_state, nothing deleted; once empty it can go', async () => {
      const parent = await create({ title: 'Has children' });
      const child = await create({ title: 'Only child', parentCollectionId: parent.id });
      const before = await snapshotTable();
      const res = await t.http.delete(`/v1/collections/${parent.id}`).set(bearer(key)).expect(409);
      expect(res.body).toEqual(errorBody('invalid_state'));
      expect(await snapshotTable()).toEqual(before);
      await t.http.delete(`/v1/collections/${child.id}`).set(bearer(key)).expect(200);
      await t.http.delete(`/v1/collections/${parent.id}`).set(bearer(key)).expect(200);
    });

    it('DELETE needs content:write', async () => {
      const c = await create({ title: 'Keep me' });
      await t.http.delete(`/v1/collections/${c.id}`).set(bearer(reader)).expect(403);
      expect(await get(c.id)).toEqual(c);
    });
  });

  describe('translations', () => {
    it('PUT creates (201) then replaces (200) the same translation, keeping its id and createdAt and moving updatedAt', async () => {
      const c = await create({ title: 'Account', subtitle: 'Your account' });
      const created = await t.http
        .put(`/v1/collections/${c.id}/translations/fr`)
        .set(bearer(key))
        .send({ title: 'Compte', subtitle: 'Votre compte' })
        .expect(201);
      expect(Object.keys(created.body).sort()).toEqual(['collectionId', 'createdAt', 'id', 'language', 'status', 'subtitle', 'title', 'updatedAt']);
      expect(created.body).toEqual({
        id: expect.stringMatching(new RegExp(`^coltr_${ULID}$`)),
        collectionId: c.id,
        language: 'fr',
        title: 'Compte',
        subtitle: 'Votre compte',
        status: 'published',
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      });
      expect(created.body.updatedAt).toBe(created.body.createdAt);

      await clockPast(created.body.updatedAt);
      const replaced = await t.http.put(`/v1/collections/${c.id}/translations/fr`).set(bearer(key)).send({ title: 'Mon compte', status: 'draft' }).expect(200);
      // PUT replaces: the omitted subtitle is now null.
      expect(replaced.body).toEqual({ ...created.body, title: 'Mon compte', subtitle: null, status: 'draft', updatedAt: expect.stringMatching(ISO_MS) });
      expect(Date.parse(replaced.body.updatedAt)).toBeGreaterThan(Date.parse(created.body.updatedAt));
      const stored = (await db.query('SELECT id, title, subtitle, status FROM collection_translations WHERE collection_id = $1', [c.id])).rows;
      expect(stored).toEqual([{ id: created.body.id, title: 'Mon compte', subtitle: null, status: 'draft' }]);
      // The collection itself is untouched.
      expect(await get(c.id)).toMatchObject({ title: 'Account', subtitle: 'Your account', updatedAt: c.updatedAt });
    });

    it('GET /v1/collections/{id} and the list return all translations', async () => {
      const c = await create({ title: 'Security' });
      const fr = (await t.http.put(`/v1/collections/${c.id}/translations/fr`).set(bearer(key)).send({ title: 'Sécurité' }).expect(201)).body;
      const de = (await t.http
        .put(`/v1/collections/${c.id}/translations/de`)
        .set(bearer(key))
        .send({ title: 'Sicherheit', subtitle: null, status: 'draft' })
        .expect(201)).body;
      const got = await get(c.id);
      expect(got.translations).toHaveLength(2);
      expect(got.translations).toEqual(expect.arrayContaining([fr, de]));
      const listed = (await t.http.get('/v1/collections').query({ page_size: 100 }).set(bearer(reader)).expect(200)).body.results.find(
        (x: CollectionBody) => x.id === c.id,
      );
      expect(listed.translations).toEqual(got.translations);
    });

    it('a PATCH of the collection keeps its translations', async () => {
      const c = await create({ title: 'Translated' });
      const fr = (await t.http.put(`/v1/collections/${c.id}/translations/fr`).set(bearer(key)).send({ title: 'Traduit' }).expect(201)).body;
      await t.http.patch(`/v1/collections/${c.id}`).set(bearer(key)).send({ title: 'Translated 2' }).expect(200);
      await move(c.id, { section_id: s2 });
      expect((await get(c.id)).translations).toEqual([fr]);
    });

    it('a PATCH or move racing a translation PUT keeps both changes', async () => {
      for (let round = 0; round < 6; round++) {
        const c = await create({ title: `Race ${round}`, sectionId: s1 });
        await t.http.put(`/v1/collections/${c.id}/translations/fr`).set(bearer(key)).send({ title: 'Avant' }).expect(201);
        const [patched, moved, put] = await Promise.all([
          t.http.patch(`/v1/collections/${c.id}`).set(bearer(key)).send({ title: `Raced ${round}` }),
          t.http.post(`/v1/collections/${c.id}/move`).set(bearer(key)).send({ section_id: s2 }),
          t.http.put(`/v1/collections/${c.id}/translations/fr`).set(bearer(key)).send({ title: 'Après' }),
        ]);
        expect([patched.status, moved.status, put.status]).toEqual([200, 200, 200]);
        const now = await get(c.id);
        expect(now).toMatchObject({ title: `Raced ${round}`, sectionId: s2 });
        expect(now.translations).toEqual([expect.objectContaining({ language: 'fr', title: 'Après' })]);
      }
    });

    describe('language checks → 400 invalid_request, nothing written', () => {
      const cases: Array<[string, string]> = [
        ['the default language', 'en'],
        ['a language that is not enabled', 'es'],
        ['upper case', 'FR'],
        ['a region variant of an enabled language', 'fr-FR'],
        ['not a language code', 'deutsch'],
        ['digits', '12'],
      ];
      it.each(cases)('%s (%s)', async (_label, language) => {
        const c = await create({ title: 'Languages' });
        const res = await t.http.put(`/v1/collections/${c.id}/translations/${language}`).set(bearer(key)).send({ title: 'X' });
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
        expect((await db.query('SELECT id FROM collection_translations WHERE collection_id = $1', [c.id])).rows).toEqual([]);
      });
    });

    describe('body checks → 400 invalid_request, nothing written', () => {
      const cases: Array<[string, unknown]> = [
        ['no title', {}],
        ['an empty title', { title: '' }],
        ['a null title', { title: null }],
        ['a title over 255 characters', { title: 't'.repeat(256) }],
        ['a subtitle over 1000 characters', { title: 'T', subtitle: 's'.repeat(1001) }],
        ['a subtitle that is a number', { title: 'T', subtitle: 3 }],
        ['an unknown status', { title: 'T', status: 'live' }],
        ['an unknown field', { title: 'T', name: 'N' }],
      ];
      it.each(cases)('%s', async (_label, body) => {
        const c = await create({ title: 'Bodies' });
        const res = await t.http.put(`/v1/collections/${c.id}/translations/fr`).set(bearer(key)).send(body as object);
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
        expect((await db.query('SELECT id FROM collection_translations WHERE collection_id = $1', [c.id])).rows).toEqual([]);
      });
    });

    it('PUT on an unknown collection → 404 not_found; needs content:write', async () => {
      expect((await t.http.put(`/v1/collections/${UNKNOWN_COLLECTION}/translations/fr`).set(bearer(key)).send({ title: 'X' }).expect(404)).body.code).toBe(
        'not_found',
      );
      const c = await create({ title: 'Scoped' });
      await t.http.put(`/v1/collections/${c.id}/translations/fr`).set(bearer(reader)).send({ title: 'X' }).expect(403);
      expect((await get(c.id)).translations).toEqual([]);
    });

    it('concurrent PUTs of the same translation all succeed: one creates it, the others replace that same one', async () => {
      const c = await create({ title: 'Contended' });
      const responses = await Promise.all(
        [1, 2, 3, 4, 5, 6].map((i) => t.http.put(`/v1/collections/${c.id}/translations/fr`).set(bearer(key)).send({ title: `Titre ${i}` })),
      );
      expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
      const stored = (await db.query('SELECT id, title FROM collection_translations WHERE collection_id = $1', [c.id])).rows;
      expect(stored).toHaveLength(1);
      for (const res of responses) expect(res.body.id).toBe(stored[0]!.id);
      expect(responses.map((r) => r.body.title)).toContain(stored[0]!.title);
    });
  });

  describe('list filter', () => {
    it('section_id lists only that section\'s collections (nested ones included); an unknown section lists none', async () => {
      const s3 = await section('Filter');
      const top = await create({ title: 'Filtered top', sectionId: s3 });
      const nested = await create({ title: 'Filtered nested', parentCollectionId: top.id });
      await create({ title: 'Not filtered', sectionId: s1 });
      const res = await t.http.get('/v1/collections').query({ section_id: s3 }).set(bearer(reader)).expect(200);
      expect(res.body).toEqual({ results: [nested, top], has_more: false, next_cursor: null });
      const none = await t.http.get('/v1/collections').query({ section_id: UNKNOWN_SECTION }).set(bearer(reader)).expect(200);
      expect(none.body).toEqual({ results: [], has_more: false, next_cursor: null });
    });

    it('bad query values → 400 invalid_request', async () => {
      for (const query of ['section_id=a&section_id=b', 'sectionId=x', 'parent_collection_id=x']) {
        const res = await t.http.get(`/v1/collections?${query}`).set(bearer(reader));
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      }
    });
  });
});
