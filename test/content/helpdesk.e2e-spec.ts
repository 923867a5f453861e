import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { clockPast } from '../support/clock.js';
import { ISO_MS, SECTION_ID, ULID } from '../support/formats.js';

const HELPDESK_ID = new RegExp(`^help_${ULID}$`);

/** The helpdesk row as stored, read straight from PostgreSQL (to prove a refused request wrote nothing). */
async function storedHelpdesk(t: TestApp): Promise<{ name: string; languages: string[]; updated_at: Date; count: number }> {
  const client = new pg.Client({ connectionString: t.databaseUrl! });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; languages: string[]; updated_at: Date }>('SELECT name, languages, updated_at FROM helpdesks');
    return { ...rows[0]!, count: rows.length };
  } finally {
    await client.end();
  }
}

describe('helpdesk (fresh deployment, default languages)', () => {
  let t: TestApp;
  let writer: string;
  let reader: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_REQUESTS_PER_MINUTE: '100000' } });
    writer = await t.key(['content:write']);
    reader = await t.key(['content:read']);
  });
  afterAll(() => t.close());

  it('GET /v1/helpdesk returns the helpdesk, field by field', async () => {
    const res = await t.http.get('/v1/helpdesk').set(bearer(reader)).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['accentColor', 'createdAt', 'defaultLanguage', 'footerLinks', 'id', 'languages', 'logoUrl', 'name', 'updatedAt']);
    expect(res.body.id).toMatch(HELPDESK_ID);
    expect(res.body.name).toBe('Help Center');
    expect(res.body.defaultLanguage).toBe('en');
    expect(res.body.languages).toEqual(['en']);
    expect(res.body.createdAt).toMatch(ISO_MS);
    expect(res.body.updatedAt).toMatch(ISO_MS);
    expect(res.body.updatedAt).toBe(res.body.createdAt);
    expect((await storedHelpdesk(t)).count).toBe(1);
  });

  it('a fresh helpdesk has exactly one section, the default "General" at position 0', async () => {
    const helpdesk = (await t.http.get('/v1/helpdesk').set(bearer(reader)).expect(200)).body;
    const res = await t.http.get('/v1/sections').set(bearer(reader)).expect(200);
    expect(res.body).toEqual({ results: [expect.any(Object)], has_more: false, next_cursor: null });
    const [general] = res.body.results;
    expect(general).toEqual({
      id: expect.stringMatching(SECTION_ID),
      helpdeskId: helpdesk.id,
      name: 'General',
      isDefault: true,
      position: 0,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
      translations: [],
    });
  });

  it('requires a key, and content:write for PATCH', async () => {
    const none = await t.http.get('/v1/helpdesk').expect(401);
    expect(none.body.code).toBe('unauthorized');
    const res = await t.http.patch('/v1/helpdesk').set(bearer(reader)).send({ name: 'Nope' }).expect(403);
    expect(res.body.code).toBe('insufficient_scope');
    expect(res.body.error).toContain('content:write');
    expect((await storedHelpdesk(t)).name).toBe('Help Center');
  });

  it('PATCH changes the name and moves updatedAt, keeping id, createdAt and languages', async () => {
    const before = (await t.http.get('/v1/helpdesk').set(bearer(reader)).expect(200)).body;
    await clockPast(before.updatedAt);
    const res = await t.http.patch('/v1/helpdesk').set(bearer(writer)).send({ name: 'Acme Support' }).expect(200);
    expect(res.body).toEqual({ ...before, name: 'Acme Support', updatedAt: expect.stringMatching(ISO_MS) });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect((await t.http.get('/v1/helpdesk').set(bearer(reader)).expect(200)).body).toEqual(res.body);
  });

  it('PATCH trims the name', async () => {
    const res = await t.http.patch('/v1/helpdesk').set(bearer(writer)).send({ name: '  Acme Help  ' }).expect(200);
    expect(res.body.name).toBe('Acme Help');
  });

  it('PATCH enables languages; the default language stays first and duplicates collapse', async () => {
    let res = await t.http.patch('/v1/helpdesk').set(bearer(writer)).send({ languages: ['en', 'fr', 'de'] }).expect(200);
    expect(res.body.languages).toEqual(['en', 'fr', 'de']);
    expect(res.body.defaultLanguage).toBe('en');

    res = await t.http.patch('/v1/helpdesk').set(bearer(writer)).send({ languages: ['fr', 'pt-BR', 'en', 'fr'] }).expect(200);
    expect(res.body.languages).toEqual(['en', 'fr', 'pt-BR']);
    expect(res.body.defaultLanguage).toBe('en');
    expect((await t.http.get('/v1/helpdesk').set(bearer(reader)).expect(200)).body.languages).toEqual(['en', 'fr', 'pt-BR']);
    expect((await storedHelpdesk(t)).languages).toEqual(['en', 'fr', 'pt-BR']);
  });

  it('PATCH with both fields changes both; an empty body changes nothing but updatedAt', async () => {
    const res = await t.http.patch('/v1/helpdesk').set(bearer(writer)).send({ name: 'Both', languages: ['en', 'es'] }).expect(200);
    expect(res.body).toMatchObject({ name: 'Both', languages: ['en', 'es'], defaultLanguage: 'en' });
    const empty = await t.http.patch('/v1/helpdesk').set(bearer(writer)).send({}).expect(200);
    expect(empty.body).toMatchObject({ name: 'Both', languages: ['en', 'es'], defaultLanguage: 'en' });
  });

  it('translations follow the enabled languages: a newly enabled language is accepted, a removed one refused', async () => {
    const general = (await t.http.get('/v1/sections').set(bearer(reader)).expect(200)).body.results[0];
    await t.http.patch('/v1/helpdesk').set(bearer(writer)).send({ languages: ['en', 'it'] }).expect(200);
    await t.http.put(`/v1/sections/${general.id}/translations/it`).set(bearer(writer)).send({ name: 'Generale' }).expect(201);
    await t.http.patch('/v1/helpdesk').set(bearer(writer)).send({ languages: ['en'] }).expect(200);
    const res = await t.http.put(`/v1/sections/${general.id}/translations/it`).set(bearer(writer)).send({ name: 'Generale' }).expect(400);
    expect(res.body.code).toBe('invalid_request');
  });

  it('concurrent PATCHes of different fields both take effect', async () => {
    for (let round = 0; round < 8; round++) {
      const languages = round % 2 === 0 ? ['en', 'fr'] : ['en', 'de'];
      const [named, languaged] = await Promise.all([
        t.http.patch('/v1/helpdesk').set(bearer(writer)).send({ name: `Race ${round}` }),
        t.http.patch('/v1/helpdesk').set(bearer(writer)).send({ languages }),
      ]);
      expect([named.status, languaged.status]).toEqual([200, 200]);
      expect(await storedHelpdesk(t)).toMatchObject({ name: `Race ${round}`, languages });
    }
  });

  describe('refused updates write nothing', () => {
    const cases: Array<[string, unknown]> = [
      ['languages without the default language', { languages: ['fr', 'de'] }],
      ['empty languages', { languages: [] }],
      ['languages not an array', { languages: 'en,fr' }],
      ['a language that is not a code', { languages: ['en', 'French'] }],
      ['a language with an underscore', { languages: ['en', 'pt_BR'] }],
      ['a language in upper case', { languages: ['en', 'FR'] }],
      ['a language that is not a string', { languages: ['en', 7] }],
      ['a null language', { languages: ['en', null] }],
      ['languages null', { languages: null }],
      ['an empty name', { name: '' }],
      ['a blank name', { name: '   ' }],
      ['a name over 200 characters', { name: 'x'.repeat(201) }],
      ['a name that is not a string', { name: 42 }],
      ['a null name', { name: null }],
      ['an unknown field', { name: 'Ok', theme: 'dark' }],
      ['the default language (it cannot be changed)', { defaultLanguage: 'fr' }],
      ['a read-only field', { id: 'help_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' }],
    ];
    it.each(cases)('%s → 400 invalid_request', async (_label, body) => {
      const before = await storedHelpdesk(t);
      const res = await t.http.patch('/v1/helpdesk').set(bearer(writer)).send(body as object).expect(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', error: expect.any(String) });
      expect(await storedHelpdesk(t)).toEqual(before);
    });

    it('a body that is not JSON → 415, malformed JSON → 400', async () => {
      const before = await storedHelpdesk(t);
      const wrongType = await t.http.patch('/v1/helpdesk').set(bearer(writer)).set('Content-Type', 'text/plain').send('name=x').expect(415);
      expect(wrongType.body.code).toBe('unsupported_media_type');
      const malformed = await t.http.patch('/v1/helpdesk').set(bearer(writer)).set('Content-Type', 'application/json').send('{"name":').expect(400);
      expect(malformed.body.code).toBe('invalid_request');
      expect(await storedHelpdesk(t)).toEqual(before);
    });

    it('a name of exactly 200 characters is accepted', async () => {
      const res = await t.http.patch('/v1/helpdesk').set(bearer(writer)).send({ name: 'n'.repeat(200) }).expect(200);
      expect(res.body.name).toBe('n'.repeat(200));
    });
  });
});

describe('helpdesk (HELPDESK_LANGUAGES=fr,en,de)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { HELPDESK_LANGUAGES: 'fr, en,de' } });
    key = await t.key();
  });
  afterAll(() => t.close());

  it('the first language is the default one, the rest are enabled', async () => {
    const res = await t.http.get('/v1/helpdesk').set(bearer(key)).expect(200);
    expect(res.body.defaultLanguage).toBe('fr');
    expect(res.body.languages).toEqual(['fr', 'en', 'de']);
  });

  it('still creates the default section "General"', async () => {
    const res = await t.http.get('/v1/sections').set(bearer(key)).expect(200);
    expect(res.body.results).toHaveLength(1);
    expect(res.body.results[0]).toMatchObject({ name: 'General', isDefault: true, position: 0 });
  });

  it('the default language cannot be removed', async () => {
    const res = await t.http.patch('/v1/helpdesk').set(bearer(key)).send({ languages: ['en', 'de'] }).expect(400);
    expect(res.body.code).toBe('invalid_request');
    expect((await t.http.get('/v1/helpdesk').set(bearer(key)).expect(200)).body.languages).toEqual(['fr', 'en', 'de']);
  });

  it('translations go into the non-default languages: en is accepted, fr (the default) is refused', async () => {
    const general = (await t.http.get('/v1/sections').set(bearer(key)).expect(200)).body.results[0];
    await t.http.put(`/v1/sections/${general.id}/translations/en`).set(bearer(key)).send({ name: 'General' }).expect(201);
    const res = await t.http.put(`/v1/sections/${general.id}/translations/fr`).set(bearer(key)).send({ name: 'Général' }).expect(400);
    expect(res.body.code).toBe('invalid_request');
  });
});
