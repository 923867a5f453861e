import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { clockPast } from '../support/clock.js';
import { errorBody } from '../support/errors.js';
import { ISO_MS, SECTION_ID, ULID, UNKNOWN_SECTION } from '../support/formats.js';

interface SectionBody {
  id: string;
  helpdeskId: string;
  name: string;
  isDefault: boolean;
  position: number;
  createdAt: string;
  updatedAt: string;
  translations: Array<Record<string, unknown>>;
}

describe('sections', () => {
  let t: TestApp;
  let key: string;
  let reader: string;
  let helpdeskId: string;
  let db: pg.Client;

  async function rows(sql: string, params: unknown[] = []): Promise<Array<Record<string, unknown>>> {
    return (await db.query(sql, params)).rows;
  }

  /** Every section, walking all pages. */
  async function allSections(): Promise<SectionBody[]> {
    const all: SectionBody[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { results: SectionBody[]; next_cursor: string | null } } = await t.http
        .get('/v1/sections')
        .query({ page_size: 100, ...(cursor ? { start_cursor: cursor } : {}) })
        .set(bearer(reader))
        .expect(200);
      all.push(...res.body.results);
      cursor = res.body.next_cursor;
    } while (cursor);
    return all;
  }

  async function defaults(): Promise<string[]> {
    const stored = await rows('SELECT id FROM sections WHERE is_default');
    const listed = (await allSections()).filter((s) => s.isDefault).map((s) => s.id);
    expect(listed).toEqual(stored.map((r) => r.id));
    return listed;
  }

  async function create(body: Record<string, unknown>): Promise<SectionBody> {
    return (await t.http.post('/v1/sections').set(bearer(key)).send(body).expect(201)).body;
  }

  async function get(id: string): Promise<SectionBody> {
    return (await t.http.get(`/v1/sections/${id}`).set(bearer(reader)).expect(200)).body;
  }

  async function general(): Promise<SectionBody> {
    return (await allSections()).find((s) => s.name === 'General' && s.position === 0)!;
  }

  beforeAll(async () => {
    t = await startTestApp({ env: { HELPDESK_LANGUAGES: 'en,fr,de,pt-BR', RATE_LIMIT_REQUESTS_PER_MINUTE: '100000' } });
    key = await t.key(['content:write']);
    reader = await t.key(['content:read']);
    helpdeskId = (await t.http.get('/v1/helpdesk').set(bearer(reader)).expect(200)).body.id;
    db = new pg.Client({ connectionString: t.databaseUrl! });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  describe('create and read', () => {
    it('POST creates a section after the last one, not the default, and returns it field by field', async () => {
      const res = await t.http.post('/v1/sections').set(bearer(key)).send({ name: 'Billing' }).expect(201);
      expect(Object.keys(res.body).sort()).toEqual(['createdAt', 'helpdeskId', 'id', 'isDefault', 'name', 'position', 'translations', 'updatedAt']);
      expect(res.body).toEqual({
        id: expect.stringMatching(SECTION_ID),
        helpdeskId,
        name: 'Billing',
        isDefault: false,
        position: 1,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
        translations: [],
      });
      expect(res.body.updatedAt).toBe(res.body.createdAt);
      expect(await get(res.body.id)).toEqual(res.body);
      const [row] = await rows('SELECT name, is_default, position FROM sections WHERE id = $1', [res.body.id]);
      expect(row).toEqual({ name: 'Billing', is_default: false, position: 1 });
    });

    it('the next section without a position goes after the highest one', async () => {
      await create({ name: 'Far away', position: 40 });
      expect((await create({ name: 'After' })).position).toBe(41);
    });

    it('takes an explicit position (0 and the maximum included)', async () => {
      expect((await create({ name: 'Zero', position: 0 })).position).toBe(0);
      expect((await create({ name: 'Max', position: 1_000_000 })).position).toBe(1_000_000);
    });

    it('GET /v1/sections/{id} of an unknown or malformed ID → 404 not_found', async () => {
      for (const id of [UNKNOWN_SECTION, 'nope', 'col_01JD3Q7W6S1X0Y2Z3A4B5C6D7E']) {
        const res = await t.http.get(`/v1/sections/${id}`).set(bearer(reader)).expect(404);
        expect(res.body).toEqual(errorBody('not_found'));
      }
    });

    it('needs content:write to create and a key to read', async () => {
      const count = (await rows('SELECT COUNT(*)::int AS n FROM sections'))[0]!.n;
      const forbidden = await t.http.post('/v1/sections').set(bearer(reader)).send({ name: 'Nope' }).expect(403);
      expect(forbidden.body.code).toBe('insufficient_scope');
      await t.http.get('/v1/sections').expect(401);
      expect((await rows('SELECT COUNT(*)::int AS n FROM sections'))[0]!.n).toBe(count);
    });

    describe('bad input → 400 invalid_request and nothing written', () => {
      const cases: Array<[string, unknown]> = [
        ['no name', {}],
        ['an empty name', { name: '' }],
        ['a name over 255 characters', { name: 's'.repeat(256) }],
        ['a name that is not a string', { name: 12 }],
        ['a null name', { name: null }],
        ['a negative position', { name: 'X', position: -1 }],
        ['a fractional position', { name: 'X', position: 1.5 }],
        ['a position given as a string', { name: 'X', position: '2' }],
        ['a position over the maximum', { name: 'X', position: 1_000_001 }],
        ['isDefault as a string', { name: 'X', isDefault: 'true' }],
        ['isDefault as a number', { name: 'X', isDefault: 1 }],
        ['an unknown field', { name: 'X', slug: 'x' }],
        ['a read-only field', { name: 'X', id: UNKNOWN_SECTION }],
        ['translations in the body', { name: 'X', translations: [] }],
      ];
      it.each(cases)('%s', async (_label, body) => {
        const before = await rows('SELECT id, is_default FROM sections ORDER BY id');
        const res = await t.http.post('/v1/sections').set(bearer(key)).send(body as object).expect(400);
        expect(res.body).toMatchObject({ code: 'invalid_request', error: expect.any(String) });
        expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: expect.any(String), message: expect.any(String) })]));
        expect(await rows('SELECT id, is_default FROM sections ORDER BY id')).toEqual(before);
      });

      it('a name of exactly 255 characters is accepted', async () => {
        expect((await create({ name: 'n'.repeat(255) })).name).toBe('n'.repeat(255));
      });
    });
  });

  describe('the default section', () => {
    it('there is exactly one, "General"', async () => {
      const ids = await defaults();
      expect(ids).toHaveLength(1);
      expect((await get(ids[0]!)).name).toBe('General');
    });

    it('POST with isDefault: true makes the new section the default and the previous one stops being it', async () => {
      const previous = (await defaults())[0]!;
      const created = await create({ name: 'New default', isDefault: true });
      expect(created.isDefault).toBe(true);
      expect(await defaults()).toEqual([created.id]);
      expect((await get(previous)).isDefault).toBe(false);
    });

    it('POST with isDefault: false creates an ordinary section', async () => {
      const before = await defaults();
      expect((await create({ name: 'Ordinary', isDefault: false })).isDefault).toBe(false);
      expect(await defaults()).toEqual(before);
    });

    it('PATCH isDefault: true moves the default', async () => {
      const g = await general();
      const previous = (await defaults())[0]!;
      await clockPast((await get(previous)).updatedAt);
      const res = await t.http.patch(`/v1/sections/${g.id}`).set(bearer(key)).send({ isDefault: true }).expect(200);
      expect(res.body).toEqual({ ...g, isDefault: true, updatedAt: expect.stringMatching(ISO_MS) });
      expect(await defaults()).toEqual([g.id]);
      const old = await get(previous);
      expect(old.isDefault).toBe(false);
      expect(Date.parse(old.updatedAt)).toBeGreaterThan(Date.parse(old.createdAt));
    });

    it('PATCH isDefault: true on the default changes nothing else', async () => {
      const g = await general();
      const res = await t.http.patch(`/v1/sections/${g.id}`).set(bearer(key)).send({ isDefault: true }).expect(200);
      expect(res.body.isDefault).toBe(true);
      expect(await defaults()).toEqual([g.id]);
    });

    it('PATCH isDefault: false on the default → 409 invalid_state, nothing changed', async () => {
      const g = await general();
      const res = await t.http.patch(`/v1/sections/${g.id}`).set(bearer(key)).send({ isDefault: false, name: 'Renamed' }).expect(409);
      expect(res.body).toEqual(errorBody('invalid_state'));
      expect(await get(g.id)).toEqual(g);
      expect(await defaults()).toEqual([g.id]);
    });

    it('PATCH isDefault: false on another section leaves it non-default', async () => {
      const other = await create({ name: 'Other' });
      const res = await t.http.patch(`/v1/sections/${other.id}`).set(bearer(key)).send({ isDefault: false }).expect(200);
      expect(res.body.isDefault).toBe(false);
      expect((await defaults())).toEqual([(await general()).id]);
    });

    it('concurrent switches of the default leave exactly one default, without a 500', async () => {
      const candidates = await Promise.all([1, 2, 3, 4].map((i) => create({ name: `Candidate ${i}` })));
      const responses = await Promise.all(
        candidates.map((c) => t.http.patch(`/v1/sections/${c.id}`).set(bearer(key)).send({ isDefault: true })),
      );
      for (const res of responses) expect(res.status).toBe(200);
      const ids = await defaults();
      expect(ids).toHaveLength(1);
      expect(candidates.map((c) => c.id)).toContain(ids[0]);
      // Put "General" back as the default for the other tests.
      await t.http.patch(`/v1/sections/${(await general()).id}`).set(bearer(key)).send({ isDefault: true }).expect(200);
    });

    it('concurrent creations with isDefault: true leave exactly one default, without a 500', async () => {
      const responses = await Promise.all(
        [1, 2, 3, 4].map((i) => t.http.post('/v1/sections').set(bearer(key)).send({ name: `Racing default ${i}`, isDefault: true })),
      );
      for (const res of responses) expect(res.status).toBe(201);
      const ids = await defaults();
      expect(ids).toHaveLength(1);
      expect(responses.map((r) => r.body.id)).toContain(ids[0]);
      await t.http.patch(`/v1/sections/${(await general()).id}`).set(bearer(key)).send({ isDefault: true }).expect(200);
    });
  });

  describe('update', () => {
    it('PATCH renames and repositions, keeping id, createdAt and the default flag', async () => {
      const section = await create({ name: 'Draft name' });
      await clockPast(section.updatedAt);
      const res = await t.http.patch(`/v1/sections/${section.id}`).set(bearer(key)).send({ name: 'Final name', position: 7 }).expect(200);
      expect(res.body).toEqual({ ...section, name: 'Final name', position: 7, updatedAt: expect.stringMatching(ISO_MS) });
      expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(section.updatedAt));
      expect(await get(section.id)).toEqual(res.body);
    });

    it('PATCH with one field leaves the others alone', async () => {
      const section = await create({ name: 'Keep', position: 3 });
      const res = await t.http.patch(`/v1/sections/${section.id}`).set(bearer(key)).send({ position: 4 }).expect(200);
      expect(res.body).toMatchObject({ name: 'Keep', position: 4, isDefault: false });
    });

    it('PATCH of an unknown section → 404 not_found', async () => {
      const res = await t.http.patch(`/v1/sections/${UNKNOWN_SECTION}`).set(bearer(key)).send({ name: 'X' }).expect(404);
      expect(res.body.code).toBe('not_found');
    });

    it('PATCH needs content:write', async () => {
      const section = await create({ name: 'Guarded' });
      expect((await t.http.patch(`/v1/sections/${section.id}`).set(bearer(reader)).send({ name: 'X' }).expect(403)).body.code).toBe('insufficient_scope');
      expect((await get(section.id)).name).toBe('Guarded');
    });

    describe('bad input → 400 and nothing changed', () => {
      const cases: Array<[string, unknown]> = [
        ['an empty name', { name: '' }],
        ['a null name', { name: null }],
        ['a name over 255 characters', { name: 'x'.repeat(256) }],
        ['a null position', { position: null }],
        ['a negative position', { position: -3 }],
        ['a position as a string', { position: '1' }],
        ['isDefault as a string', { isDefault: 'false' }],
        ['an unknown field', { helpdeskId: 'help_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' }],
      ];
      it.each(cases)('%s', async (_label, body) => {
        const section = await create({ name: 'Unchanged', position: 5 });
        const res = await t.http.patch(`/v1/sections/${section.id}`).set(bearer(key)).send(body as object).expect(400);
        expect(res.body.code).toBe('invalid_request');
        expect(await get(section.id)).toEqual(section);
      });
    });
  });

  describe('delete', () => {
    it('DELETE of an empty, non-default section → 200 {id, deleted: true}; then it is gone', async () => {
      const section = await create({ name: 'Short-lived' });
      await t.http.put(`/v1/sections/${section.id}/translations/fr`).set(bearer(key)).send({ name: 'Éphémère' }).expect(201);
      const res = await t.http.delete(`/v1/sections/${section.id}`).set(bearer(key)).expect(200);
      expect(res.body).toEqual({ id: section.id, deleted: true });
      expect((await t.http.get(`/v1/sections/${section.id}`).set(bearer(reader)).expect(404)).body.code).toBe('not_found');
      expect((await allSections()).map((s) => s.id)).not.toContain(section.id);
      expect(await rows('SELECT id FROM section_translations WHERE section_id = $1', [section.id])).toEqual([]);
      expect((await t.http.delete(`/v1/sections/${section.id}`).set(bearer(key)).expect(404)).body.code).toBe('not_found');
    });

    it('DELETE of the default section → 409 invalid_state, nothing deleted', async () => {
      const id = (await defaults())[0]!;
      const before = await get(id);
      const res = await t.http.delete(`/v1/sections/${id}`).set(bearer(key)).expect(409);
      expect(res.body).toEqual(errorBody('invalid_state'));
      expect(await get(id)).toEqual(before);
      expect(await defaults()).toEqual([id]);
    });

    it('DELETE of a section holding collections → 409 invalid_state; nothing deleted; once emptied it can go', async () => {
      const section = await create({ name: 'Holding' });
      const collection = (await t.http.post('/v1/collections').set(bearer(key)).send({ title: 'Inside', sectionId: section.id }).expect(201)).body;
      const res = await t.http.delete(`/v1/sections/${section.id}`).set(bearer(key)).expect(409);
      expect(res.body.code).toBe('invalid_state');
      expect(await get(section.id)).toEqual(section);
      expect((await t.http.get(`/v1/collections/${collection.id}`).set(bearer(reader)).expect(200)).body.sectionId).toBe(section.id);

      const elsewhere = await create({ name: 'Elsewhere' });
      await t.http.post(`/v1/collections/${collection.id}/move`).set(bearer(key)).send({ section_id: elsewhere.id }).expect(200);
      await t.http.delete(`/v1/sections/${section.id}`).set(bearer(key)).expect(200);
    });

    it('moving a collection tree out of a section empties it: nested collections go along', async () => {
      const a = await create({ name: 'A' });
      const b = await create({ name: 'B' });
      const parent = (await t.http.post('/v1/collections').set(bearer(key)).send({ title: 'Parent', sectionId: a.id }).expect(201)).body;
      await t.http.post('/v1/collections').set(bearer(key)).send({ title: 'Child', parentCollectionId: parent.id }).expect(201);
      expect((await t.http.delete(`/v1/sections/${a.id}`).set(bearer(key)).expect(409)).body.code).toBe('invalid_state');
      await t.http.post(`/v1/collections/${parent.id}/move`).set(bearer(key)).send({ section_id: b.id }).expect(200);
      expect((await t.http.delete(`/v1/sections/${b.id}`).set(bearer(key)).expect(409)).body.code).toBe('invalid_state');
      await t.http.delete(`/v1/sections/${a.id}`).set(bearer(key)).expect(200);
    });

    it('a DELETE racing a collection placed into the section: never a 500, never a collection in a deleted section', async () => {
      for (let round = 0; round < 8; round++) {
        const section = await create({ name: `Race ${round}` });
        const [deleted, placed] = await Promise.all([
          t.http.delete(`/v1/sections/${section.id}`).set(bearer(key)),
          t.http.post('/v1/collections').set(bearer(key)).send({ title: 'Racer', sectionId: section.id }),
        ]);
        // Either the delete went first (the collection is refused) or the collection did (the delete is refused).
        expect([[200, 400], [409, 201]]).toContainEqual([deleted.status, placed.status]);
        const orphans = await rows('SELECT c.id FROM collections c LEFT JOIN sections s ON s.id = c.section_id WHERE c.section_id IS NOT NULL AND s.id IS NULL');
        expect(orphans).toEqual([]);
      }
    });

    it('DELETE needs content:write', async () => {
      const section = await create({ name: 'Protected' });
      await t.http.delete(`/v1/sections/${section.id}`).set(bearer(reader)).expect(403);
      expect(await get(section.id)).toEqual(section);
    });
  });

  describe('translations', () => {
    it('PUT creates (201) then replaces (200) the same translation, keeping its id and createdAt and moving updatedAt', async () => {
      const section = await create({ name: 'Account' });
      const created = await t.http.put(`/v1/sections/${section.id}/translations/fr`).set(bearer(key)).send({ name: 'Compte' }).expect(201);
      expect(Object.keys(created.body).sort()).toEqual(['createdAt', 'id', 'language', 'name', 'sectionId', 'status', 'updatedAt']);
      expect(created.body).toEqual({
        id: expect.stringMatching(new RegExp(`^sectr_${ULID}$`)),
        sectionId: section.id,
        language: 'fr',
        name: 'Compte',
        status: 'published',
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      });
      expect(created.body.updatedAt).toBe(created.body.createdAt);

      await clockPast(created.body.updatedAt);
      const replaced = await t.http
        .put(`/v1/sections/${section.id}/translations/fr`)
        .set(bearer(key))
        .send({ name: 'Mon compte', status: 'draft' })
        .expect(200);
      expect(replaced.body).toEqual({ ...created.body, name: 'Mon compte', status: 'draft', updatedAt: expect.stringMatching(ISO_MS) });
      expect(Date.parse(replaced.body.updatedAt)).toBeGreaterThan(Date.parse(created.body.updatedAt));

      // Replacing without a status publishes it again (status defaults to published).
      const republished = await t.http.put(`/v1/sections/${section.id}/translations/fr`).set(bearer(key)).send({ name: 'Mon compte' }).expect(200);
      expect(republished.body).toMatchObject({ id: created.body.id, status: 'published' });

      const stored = await rows('SELECT id, name, status FROM section_translations WHERE section_id = $1', [section.id]);
      expect(stored).toEqual([{ id: created.body.id, name: 'Mon compte', status: 'published' }]);
    });

    it('GET /v1/sections/{id} (and the list) return all translations', async () => {
      const section = await create({ name: 'Security' });
      const de = (await t.http.put(`/v1/sections/${section.id}/translations/de`).set(bearer(key)).send({ name: 'Sicherheit', status: 'draft' }).expect(201)).body;
      const fr = (await t.http.put(`/v1/sections/${section.id}/translations/fr`).set(bearer(key)).send({ name: 'Sécurité' }).expect(201)).body;
      const pt = (await t.http.put(`/v1/sections/${section.id}/translations/pt-BR`).set(bearer(key)).send({ name: 'Segurança' }).expect(201)).body;
      const got = await get(section.id);
      expect(got.translations).toHaveLength(3);
      expect(got.translations).toEqual(expect.arrayContaining([de, fr, pt]));
      const listed = (await allSections()).find((s) => s.id === section.id)!;
      expect(listed.translations).toEqual(got.translations);
      // Translations are not written into the section itself.
      expect(got).toMatchObject({ name: 'Security', updatedAt: section.updatedAt });
    });

    describe('language checks → 400 invalid_request, nothing written', () => {
      const cases: Array<[string, string]> = [
        ['the default language', 'en'],
        ['a language that is not enabled', 'es'],
        ['a language code in upper case', 'FR'],
        ['a region variant of an enabled language', 'fr-CA'],
        ['a lower-cased region variant', 'pt-br'],
        ['not a language code', 'french'],
        ['a code with an underscore', 'pt_BR'],
        ['a code with symbols', encodeURIComponent('f r!')],
      ];
      it.each(cases)('%s (%s)', async (_label, language) => {
        const section = await create({ name: 'Languages' });
        const res = await t.http.put(`/v1/sections/${section.id}/translations/${language}`).set(bearer(key)).send({ name: 'X' }).expect(400);
        expect(res.body.code).toBe('invalid_request');
        expect(await rows('SELECT id FROM section_translations WHERE section_id = $1', [section.id])).toEqual([]);
        expect((await get(section.id)).translations).toEqual([]);
      });
    });

    describe('body checks → 400 invalid_request, nothing written', () => {
      const cases: Array<[string, unknown]> = [
        ['no name', {}],
        ['an empty name', { name: '' }],
        ['a null name', { name: null }],
        ['a name over 255 characters', { name: 'n'.repeat(256) }],
        ['a name that is not a string', { name: ['Compte'] }],
        ['an unknown status', { name: 'Compte', status: 'archived' }],
        ['a status in upper case', { name: 'Compte', status: 'PUBLISHED' }],
        ['an unknown field', { name: 'Compte', language: 'fr' }],
      ];
      it.each(cases)('%s', async (_label, body) => {
        const section = await create({ name: 'Bodies' });
        const res = await t.http.put(`/v1/sections/${section.id}/translations/fr`).set(bearer(key)).send(body as object).expect(400);
        expect(res.body.code).toBe('invalid_request');
        expect(await rows('SELECT id FROM section_translations WHERE section_id = $1', [section.id])).toEqual([]);
      });
    });

    it('a refused replacement keeps the existing translation as it was', async () => {
      const section = await create({ name: 'Keep translation' });
      const fr = (await t.http.put(`/v1/sections/${section.id}/translations/fr`).set(bearer(key)).send({ name: 'Garder' }).expect(201)).body;
      await t.http.put(`/v1/sections/${section.id}/translations/fr`).set(bearer(key)).send({ name: '' }).expect(400);
      expect((await get(section.id)).translations).toEqual([fr]);
    });

    it('PUT on an unknown section → 404 not_found', async () => {
      const res = await t.http.put(`/v1/sections/${UNKNOWN_SECTION}/translations/fr`).set(bearer(key)).send({ name: 'X' }).expect(404);
      expect(res.body.code).toBe('not_found');
      expect(await rows('SELECT id FROM section_translations WHERE section_id = $1', [UNKNOWN_SECTION])).toEqual([]);
    });

    it('PUT needs content:write', async () => {
      const section = await create({ name: 'Scoped' });
      await t.http.put(`/v1/sections/${section.id}/translations/fr`).set(bearer(reader)).send({ name: 'X' }).expect(403);
      expect((await get(section.id)).translations).toEqual([]);
    });

    it('concurrent PUTs of the same translation all succeed: one creates it, the others replace that same one', async () => {
      const section = await create({ name: 'Contended' });
      const responses = await Promise.all(
        [1, 2, 3, 4, 5, 6].map((i) => t.http.put(`/v1/sections/${section.id}/translations/de`).set(bearer(key)).send({ name: `Name ${i}` })),
      );
      for (const res of responses) expect([200, 201]).toContain(res.status);
      const stored = await rows('SELECT id, name FROM section_translations WHERE section_id = $1', [section.id]);
      expect(stored).toHaveLength(1);
      expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
      // Every response describes the translation that exists.
      for (const res of responses) expect(res.body.id).toBe(stored[0]!.id);
      expect(responses.map((r) => r.body.name)).toContain(stored[0]!.name);
    });
  });
});
