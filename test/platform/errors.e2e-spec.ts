import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Response } from 'supertest';
import { CursorCodec, ERROR_CODES } from '#core';
import { HTTP_STATUS_BY_CODE, MAX_BODY_BYTES } from '#gateway';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { TEST_APP_SECRET } from '../support/env.js';
import { errorBody } from '../support/errors.js';

// Booting an app against a fresh database can take a few seconds on a busy machine. The e2e project's
// testTimeout is not applied (jest-circus takes testTimeout from the global config), so set it here.
jest.setTimeout(60_000);

const STACK_TRACE = /\n\s+at |\bat [^\s]+ \(|node_modules|\.ts:\d+|QueryFailedError|TypeORMError|duplicate key|syntax error at/;

/** CONTRACT §2: exactly `{ error, code }` (+ `details` [{ field, message }] when asked for), JSON, no stack, no driver text. */
function expectError(res: Response, status: number, code: string, options: { details?: 'required' | 'absent' | 'any' } = {}): void {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.headers['content-type']).toMatch(/^application\/json; charset=utf-8$/);
  const { details, ...rest } = res.body as { details?: unknown };
  expect(rest).toEqual(errorBody(code));
  expect((rest as { requestId: string }).requestId).toBe(res.headers['x-request-id']);
  expect((rest as { docUrl: string }).docUrl).toBe(`http://help.test/docs/errors#${code}`);
  expect((rest as { error: string }).error.length).toBeGreaterThan(0);
  const mode = options.details ?? 'absent';
  if (mode === 'absent') expect(details).toBeUndefined();
  if (mode === 'required') expect(details).toEqual(expect.arrayContaining([expect.anything()]));
  if (details !== undefined) {
    expect(Array.isArray(details)).toBe(true);
    for (const detail of details as unknown[]) expect(detail).toEqual({ field: expect.any(String), message: expect.any(String) });
  }
  expect(res.text).not.toMatch(STACK_TRACE);
}

function fieldsOf(res: Response): string[] {
  return ((res.body.details ?? []) as Array<{ field: string }>).map((d) => d.field);
}

describe('errors: status, code and envelope (CONTRACT §2)', () => {
  let t: TestApp;
  let key: string;
  let sectionId: string;
  let collectionId: string;

  /** Everything a request to these routes could change, read with the admin key. */
  async function state(): Promise<unknown> {
    const [helpdesk, sections, collections] = await Promise.all([
      t.http.get('/v1/helpdesk').set(bearer(key)).expect(200),
      t.http.get('/v1/sections?page_size=100').set(bearer(key)).expect(200),
      t.http.get('/v1/collections?page_size=100').set(bearer(key)).expect(200),
    ]);
    return { helpdesk: helpdesk.body, sections: sections.body, collections: collections.body };
  }

  /** Runs a bad request and checks the stored state did not change. */
  async function unchanged(request: () => PromiseLike<Response>): Promise<Response> {
    const before = await state();
    const res = await request();
    expect(await state()).toEqual(before);
    return res;
  }

  const postJson = (path: string, raw: string, type = 'application/json') =>
    t.http.post(path).set(bearer(key)).set('Content-Type', type).send(raw);

  beforeAll(async () => {
    t = await startTestApp({ env: { HELPDESK_LANGUAGES: 'en,fr', RATE_LIMIT_REQUESTS_PER_MINUTE: '100000' } });
    key = await t.key(null);
    sectionId = (await t.http.post('/v1/sections').set(bearer(key)).send({ name: 'Fixture' }).expect(201)).body.id;
    collectionId = (await t.http.post('/v1/collections').set(bearer(key)).send({ title: 'Fixture' }).expect(201)).body.id;
  });
  afterAll(() => t.close());

  describe('request bodies', () => {
    it.each([
      ['an unterminated object', '{"name":'],
      ['unquoted keys', '{name: "x"}'],
      ['single quotes', "{'name':'x'}"],
      ['a trailing comma', '{"name":"x",}'],
      ['two documents', '{"name":"x"}{"name":"y"}'],
      ['a bare string', '"x"'],
      ['a bare number', '42'],
      ['null', 'null'],
    ])('rejects %s with 400 invalid_request and writes nothing', async (_label, raw) => {
      const res = await unchanged(() => postJson('/v1/sections', raw));
      expectError(res, 400, 'invalid_request', { details: 'any' });
    });

    it.each([
      ['an array of objects', '[{"name":"x"}]'],
      ['an empty array', '[]'],
    ])('rejects a JSON array body (%s) with 400 and writes nothing', async (_label, raw) => {
      const res = await unchanged(() => postJson('/v1/sections', raw));
      expectError(res, 400, 'invalid_request', { details: 'any' });
      expect(res.body.error).toMatch(/object/i);
    });

    it.each([
      ['a number for a string', '/v1/sections', { name: 123 }, 'name'],
      ['a numeric string for an integer (no coercion)', '/v1/sections', { name: 'x', position: '3' }, 'position'],
      ['a fraction for an integer', '/v1/sections', { name: 'x', position: 1.5 }, 'position'],
      ['a string for a boolean', '/v1/sections', { name: 'x', isDefault: 'true' }, 'isDefault'],
      ['an object for a string', '/v1/collections', { title: { en: 'x' } }, 'title'],
      ['a missing required field', '/v1/collections', { subtitle: 'x' }, 'title'],
    ])('rejects %s with 400 and details naming the field', async (_label, path, body, field) => {
      const res = await unchanged(() => t.http.post(path).set(bearer(key)).send(body));
      expectError(res, 400, 'invalid_request', { details: 'required' });
      expect(fieldsOf(res)).toContain(field);
    });

    it('rejects wrong types in PATCH and PUT bodies too', async () => {
      const patch = await unchanged(() => t.http.patch('/v1/helpdesk').set(bearer(key)).send({ languages: ['en', 7] }));
      expectError(patch, 400, 'invalid_request', { details: 'required' });
      expect(fieldsOf(patch).every((f) => f.startsWith('languages'))).toBe(true);
      const put = await unchanged(() => t.http.put(`/v1/sections/${sectionId}/translations/fr`).set(bearer(key)).send({ name: false }));
      expectError(put, 400, 'invalid_request', { details: 'required' });
      expect(fieldsOf(put)).toContain('name');
    });

    it('lists every invalid field of a request in details', async () => {
      const res = await unchanged(() => t.http.post('/v1/sections').set(bearer(key)).send({ name: 1, position: -1, isDefault: 'no' }));
      expectError(res, 400, 'invalid_request', { details: 'required' });
      expect(new Set(fieldsOf(res))).toEqual(new Set(['name', 'position', 'isDefault']));
    });

    it.each([
      ['POST /v1/sections', 'post', '/v1/sections', { name: 'x', color: 'red' }, 'color'],
      ['PATCH /v1/sections/{id}', 'patch', '/v1/sections/{section}', { name: 'x', helpdeskId: 'help_x' }, 'helpdeskId'],
      ['PATCH /v1/helpdesk', 'patch', '/v1/helpdesk', { defaultLanguage: 'fr' }, 'defaultLanguage'],
      ['POST /v1/collections/{id}/move', 'post', '/v1/collections/{collection}/move', { section_id: null, sectionId: null }, 'sectionId'],
      ['PUT /v1/collections/{id}/translations/fr', 'put', '/v1/collections/{collection}/translations/fr', { title: 'x', language: 'de' }, 'language'],
    ] as const)('rejects an unknown field on %s with 400 naming it, instead of dropping it', async (_label, method, template, body, field) => {
      const path = template.replace('{section}', sectionId).replace('{collection}', collectionId);
      const res = await unchanged(() => t.http[method](path).set(bearer(key)).send(body));
      expectError(res, 400, 'invalid_request', { details: 'required' });
      expect(fieldsOf(res)).toEqual([field]);
    });

    it.each([
      ['__proto__', '{"name":"Polluted","__proto__":{"isDefault":true}}', '__proto__'],
      ['constructor', '{"name":"Polluted","constructor":{"prototype":{"isDefault":true}}}', 'constructor'],
    ])('rejects a %s key like any unknown field (not silently dropped)', async (_label, raw, field) => {
      const res = await unchanged(() => postJson('/v1/sections', raw));
      expectError(res, 400, 'invalid_request', { details: 'required' });
      expect(fieldsOf(res)).toEqual([field]);
    });

    it('rejects a deeply nested body with 400, not a 500', async () => {
      const depth = 5_000;
      const raw = `{"name":"Deep","extra":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      const res = await unchanged(() => postJson('/v1/sections', raw));
      expectError(res, 400, 'invalid_request', { details: 'any' });
    });

    it('answers a missing body on a create with 400 naming the required fields', async () => {
      const res = await unchanged(() => t.http.post('/v1/sections').set(bearer(key)));
      expectError(res, 400, 'invalid_request', { details: 'required' });
      expect(fieldsOf(res)).toContain('name');
    });

    it.each([
      ['a NUL character in a body string', () => t.http.post('/v1/sections').set(bearer(key)).send({ name: 'a\u0000b' })],
      ['a NUL character in a path ID', () => t.http.get('/v1/sections/sect_%00').set(bearer(key))],
      ['a NUL character in a query value', () => t.http.get('/v1/collections?section_id=%00').set(bearer(key))],
    ])('answers %s with 400 (input PostgreSQL cannot store), not a 500', async (_label, request) => {
      const res = await unchanged(request);
      expectError(res, 400, 'invalid_request', { details: 'any' });
    });
  });

  describe('media types', () => {
    it.each([
      ['text/plain', 'text/plain'],
      ['form data', 'application/x-www-form-urlencoded'],
      ['octet stream', 'application/octet-stream'],
      ['XML', 'application/xml'],
      ['a JSON-looking suffix that is not +json', 'application/jsonx'],
    ])('answers a %s body with 415 unsupported_media_type and writes nothing', async (_label, type) => {
      const res = await unchanged(() => postJson('/v1/sections', '{"name":"Wrong type"}', type));
      expectError(res, 415, 'unsupported_media_type');
    });

    it('answers a body without Content-Type with 415', async () => {
      const before = await state();
      const url = new URL(t.url);
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          { host: url.hostname, port: url.port, method: 'POST', path: '/v1/sections', headers: { ...bearer(key), 'content-length': '17' } },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => resolve({ status: res.statusCode!, body: text }));
          },
        );
        req.on('error', reject);
        req.end('{"name":"No type"}'.slice(0, 17));
      });
      expect(status).toBe(415);
      expect(JSON.parse(body)).toEqual(errorBody('unsupported_media_type'));
      expect(await state()).toEqual(before);
    });

    it('answers a non-UTF-8 JSON charset with 415', async () => {
      const res = await unchanged(() => postJson('/v1/sections', '{"name":"Latin"}', 'application/json; charset=iso-8859-1'));
      expectError(res, 415, 'unsupported_media_type');
    });

    it('accepts application/json with a UTF-8 charset and +json types (the control for the 415s)', async () => {
      await postJson('/v1/sections', '{"name":"Charset"}', 'application/json; charset=utf-8').expect(201);
      await t.http.patch('/v1/helpdesk').set(bearer(key)).set('Content-Type', 'application/merge-patch+json').send('{"name":"Merge"}').expect(200);
    });
  });

  describe('body size (10 MiB)', () => {
    /** A JSON body of exactly `bytes` bytes: one long name. */
    const bodyOf = (bytes: number) => `{"name":"${'x'.repeat(bytes - '{"name":""}'.length)}"}`;

    it('parses a body of exactly 10 MiB (too long a name: 400, not 413)', async () => {
      const raw = bodyOf(MAX_BODY_BYTES);
      expect(Buffer.byteLength(raw)).toBe(10 * 1024 * 1024);
      const res = await unchanged(() => postJson('/v1/sections', raw));
      expectError(res, 400, 'invalid_request', { details: 'required' });
      expect(fieldsOf(res)).toEqual(['name']);
    });

    it('answers a body one byte over 10 MiB with 413 payload_too_large and writes nothing', async () => {
      const res = await unchanged(() => postJson('/v1/sections', bodyOf(MAX_BODY_BYTES + 1)));
      expectError(res, 413, 'payload_too_large');
    });

    it('answers a chunked body (no Content-Length) over 10 MiB with 413', async () => {
      const before = await state();
      const url = new URL(t.url);
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            method: 'POST',
            path: '/v1/sections',
            headers: { ...bearer(key), 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
          },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => resolve({ status: res.statusCode!, body: text }));
          },
        );
        // The server may answer and close before the whole body is sent.
        req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
        req.write('{"name":"');
        const chunk = Buffer.alloc(1024 * 1024, 'x');
        for (let i = 0; i < 11; i++) req.write(chunk);
        req.end('"}');
      });
      expect(status).toBe(413);
      expect(JSON.parse(body)).toEqual(errorBody('payload_too_large'));
      expect(await state()).toEqual(before);
    });
  });

  describe('unknown routes', () => {
    it.each([
      ['get', '/v1/nope'],
      ['get', '/v1/sections/x/y/z'],
      ['post', '/v1/nope'],
      ['delete', '/v1/helpdesk'],
      ['put', '/v1/sections'],
      ['get', '/v1'],
    ] as const)('answers %s %s (inside /v1) with a JSON 404 not_found', async (method, path) => {
      const res = await unchanged(() => t.http[method](path).set(bearer(key)).send({ name: 'Nowhere' }));
      expectError(res, 404, 'not_found');
    });

    // `/` is the public help center's home page; paths no page answers stay the API's JSON 404.
    it.each([
      ['get', '/nope'],
      ['get', '/v2/sections'],
      ['get', '/sections'],
      ['post', '/nope'],
      ['get', '/healthz/extra'],
    ] as const)('answers %s %s (outside /v1) with the same JSON 404, key or not', async (method, path) => {
      expectError(await unchanged(() => t.http[method](path).send({ name: 'Nowhere' })), 404, 'not_found');
      expectError(await unchanged(() => t.http[method](path).set(bearer(key)).send({ name: 'Nowhere' })), 404, 'not_found');
    });
  });

  describe('unknown IDs', () => {
    it.each([
      ['get', '/v1/sections/sect_00000000000000000000000000', undefined],
      ['patch', '/v1/sections/sect_00000000000000000000000000', { name: 'x' }],
      ['delete', '/v1/sections/sect_00000000000000000000000000', undefined],
      ['put', '/v1/sections/sect_00000000000000000000000000/translations/fr', { name: 'x' }],
      ['get', '/v1/collections/col_00000000000000000000000000', undefined],
      ['patch', '/v1/collections/col_00000000000000000000000000', { title: 'x' }],
      ['delete', '/v1/collections/col_00000000000000000000000000', undefined],
      ['post', '/v1/collections/col_00000000000000000000000000/move', { section_id: null }],
      ['put', '/v1/collections/col_00000000000000000000000000/translations/fr', { title: 'x' }],
      ['get', '/v1/sections/not-an-id', undefined],
    ] as const)('answers %s %s with 404 not_found naming the ID, and writes nothing', async (method, path, body) => {
      const res = await unchanged(() => {
        const req = t.http[method](path).set(bearer(key));
        return body ? req.send(body) : req;
      });
      expectError(res, 404, 'not_found');
      expect(res.body.error).toContain(path.split('/')[3]);
    });

    it("answers another resource type's ID with 404 (a collection ID is not a section)", async () => {
      expectError(await t.http.get(`/v1/sections/${collectionId}`).set(bearer(key)), 404, 'not_found');
      expectError(await t.http.get(`/v1/collections/${sectionId}`).set(bearer(key)), 404, 'not_found');
    });
  });

  describe('page_size', () => {
    it.each(['/v1/sections', '/v1/collections'])('accepts the bounds 1 and 100 on %s', async (path) => {
      const one = await t.http.get(`${path}?page_size=1`).set(bearer(key)).expect(200);
      expect(one.body.results).toHaveLength(1);
      await t.http.get(`${path}?page_size=100`).set(bearer(key)).expect(200);
    });

    it.each([
      ['/v1/sections', '0'],
      ['/v1/sections', '101'],
      ['/v1/sections', 'abc'],
      ['/v1/sections', '1.5'],
      ['/v1/sections', '-1'],
      ['/v1/sections', ''],
      ['/v1/collections', '0'],
      ['/v1/collections', '101'],
      ['/v1/collections', 'abc'],
      ['/v1/collections', '1.5'],
    ])('answers %s?page_size=%s with 400 invalid_request naming page_size', async (path, value) => {
      const res = await t.http.get(`${path}?page_size=${encodeURIComponent(value)}`).set(bearer(key));
      expectError(res, 400, 'invalid_request', { details: 'required' });
      expect(new Set(fieldsOf(res))).toEqual(new Set(['page_size']));
    });

    it('answers a repeated page_size with 400', async () => {
      expectError(await t.http.get('/v1/sections?page_size=1&page_size=2').set(bearer(key)), 400, 'invalid_request', { details: 'required' });
    });

    it.each(['sort', '__proto__', 'constructor'])('answers an unknown query parameter (%s) with 400 naming it', async (name) => {
      const res = await t.http.get(`/v1/sections?${name}=name`).set(bearer(key));
      expectError(res, 400, 'invalid_request', { details: 'required' });
      expect(fieldsOf(res)).toEqual([name]);
    });
  });

  describe('start_cursor', () => {
    let sectionsCursor: string;
    let collectionsCursor: string;

    beforeAll(async () => {
      await t.http.post('/v1/sections').set(bearer(key)).send({ name: 'Second' }).expect(201);
      await t.http.post('/v1/collections').set(bearer(key)).send({ title: 'Second' }).expect(201);
      const sections = await t.http.get('/v1/sections?page_size=1').set(bearer(key)).expect(200);
      const collections = await t.http.get('/v1/collections?page_size=1').set(bearer(key)).expect(200);
      expect(sections.body.has_more).toBe(true);
      expect(collections.body.has_more).toBe(true);
      sectionsCursor = sections.body.next_cursor;
      collectionsCursor = collections.body.next_cursor;
    });

    /** Changes one character of `text` at `index` to another URL-safe one. */
    function flip(text: string, index: number): string {
      const replacement = text[index] === 'A' ? 'B' : 'A';
      return `${text.slice(0, index)}${replacement}${text.slice(index + 1)}`;
    }

    it('continues a list with its own cursor (the control for the 400s)', async () => {
      const next = await t.http.get(`/v1/sections?page_size=1&start_cursor=${encodeURIComponent(sectionsCursor)}`).set(bearer(key)).expect(200);
      expect(next.body.results).toHaveLength(1);
      await t.http.get(`/v1/collections?page_size=1&start_cursor=${encodeURIComponent(collectionsCursor)}`).set(bearer(key)).expect(200);
    });

    it('answers a cursor with a changed payload with 400 invalid_cursor', async () => {
      const [body, signature] = sectionsCursor.split('.') as [string, string];
      const tampered = `${flip(body, 3)}.${signature}`;
      expectError(await t.http.get(`/v1/sections?start_cursor=${encodeURIComponent(tampered)}`).set(bearer(key)), 400, 'invalid_cursor');
      // A payload re-encoded with another position, signature kept.
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
      const moved = `${Buffer.from(JSON.stringify({ ...payload, v: Number(payload.v) + 1 })).toString('base64url')}.${signature}`;
      expectError(await t.http.get(`/v1/sections?start_cursor=${encodeURIComponent(moved)}`).set(bearer(key)), 400, 'invalid_cursor');
    });

    it('answers a cursor with a changed signature with 400 invalid_cursor', async () => {
      const [body, signature] = sectionsCursor.split('.') as [string, string];
      const tampered = `${body}.${flip(signature, 5)}`;
      expectError(await t.http.get(`/v1/sections?start_cursor=${encodeURIComponent(tampered)}`).set(bearer(key)), 400, 'invalid_cursor');
    });

    it('answers a cursor of another list with 400 invalid_cursor (sections cursor on collections and back)', async () => {
      const onCollections = await t.http.get(`/v1/collections?start_cursor=${encodeURIComponent(sectionsCursor)}`).set(bearer(key));
      expectError(onCollections, 400, 'invalid_cursor');
      const onSections = await t.http.get(`/v1/sections?start_cursor=${encodeURIComponent(collectionsCursor)}`).set(bearer(key));
      expectError(onSections, 400, 'invalid_cursor');
    });

    it('answers a well-formed cursor signed with another secret with 400 invalid_cursor', async () => {
      const position = { mode: 'position_asc' as const, value: 0, id: sectionId };
      const ours = new CursorCodec(TEST_APP_SECRET).encode('sections', position);
      // The same position signed with our secret is accepted: the refusal below is about the signature alone.
      await t.http.get(`/v1/sections?start_cursor=${encodeURIComponent(ours)}`).set(bearer(key)).expect(200);
      const foreign = new CursorCodec('another-deployment-secret-0123456789abcdef').encode('sections', position);
      expectError(await t.http.get(`/v1/sections?start_cursor=${encodeURIComponent(foreign)}`).set(bearer(key)), 400, 'invalid_cursor');
    });

    it.each([
      ['garbage', 'garbage'],
      ['an empty value', ''],
      ['dots only', '...'],
      ['three parts', 'a.b.c'],
      ['unsigned base64 JSON', Buffer.from('{"l":"sections","m":"position_asc","v":0,"i":"x"}').toString('base64url')],
      ['a 2000-character value', 'a'.repeat(2000)],
    ])('answers %s as start_cursor with 400 invalid_cursor', async (_label, cursor) => {
      const res = await t.http.get(`/v1/sections?start_cursor=${encodeURIComponent(cursor)}`).set(bearer(key));
      expectError(res, 400, 'invalid_cursor');
    });

    it('refuses a bad cursor on collections too, even with a valid section_id filter', async () => {
      const res = await t.http.get(`/v1/collections?section_id=${sectionId}&start_cursor=nonsense`).set(bearer(key));
      expectError(res, 400, 'invalid_cursor');
    });
  });

  describe('X-Request-Id', () => {
    const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

    it.each([
      ['a 200', () => t.http.get('/v1/sections').set(bearer(key)), 200],
      ['a 201', () => t.http.post('/v1/sections').set(bearer(key)).send({ name: 'Request id' }), 201],
      ['a 400', () => postJson('/v1/sections', '{'), 400],
      ['a 401', () => t.http.get('/v1/sections'), 401],
      ['a 404 inside /v1', () => t.http.get('/v1/nope'), 404],
      ['a 404 outside /v1', () => t.http.get('/nope'), 404],
      ['a 413', () => postJson('/v1/sections', `"${'x'.repeat(MAX_BODY_BYTES)}"`), 413],
      ['a 415', () => postJson('/v1/sections', 'name=x', 'text/plain'), 415],
      ['/healthz', () => t.http.get('/healthz'), 200],
      ['/readyz', () => t.http.get('/readyz'), 200],
      ['/v1/openapi.json', () => t.http.get('/v1/openapi.json'), 200],
    ])('is set on %s', async (_label, request, status) => {
      const res = await request();
      expect(res.status).toBe(status);
      expect(res.headers['x-request-id']).toMatch(UUID);
    });

    it('gives every request an ID of its own', async () => {
      const ids = await Promise.all([1, 2, 3].map(async () => (await t.http.get('/healthz')).headers['x-request-id']));
      expect(new Set(ids).size).toBe(3);
    });

    it.each([
      ['a simple token', 'req-123'],
      ['dots, colons and underscores', 'trace_01HX.span:7'],
      ['a UUID', '6f1c1f0e-3a7b-4bb2-9d65-3f1d8b2f4e10'],
      ['128 characters', 'a'.repeat(128)],
    ])('echoes a valid incoming one (%s), on success and on errors', async (_label, id) => {
      expect((await t.http.get('/v1/sections').set(bearer(key)).set('X-Request-Id', id).expect(200)).headers['x-request-id']).toBe(id);
      expect((await t.http.get('/v1/sections').set('X-Request-Id', id).expect(401)).headers['x-request-id']).toBe(id);
      expect((await t.http.get('/nope').set('X-Request-Id', id).expect(404)).headers['x-request-id']).toBe(id);
    });

    it.each([
      ['spaces', 'has spaces in it'],
      ['300 characters', 'a'.repeat(300)],
      ['129 characters', 'a'.repeat(129)],
      ['markup', '<script>alert(1)</script>'],
      ['a quote and a semicolon', 'id";drop'],
      ['non-ASCII', 'ré'],
    ])('replaces an invalid incoming one (%s) with a new UUID', async (_label, id) => {
      const res = await t.http.get('/v1/sections').set(bearer(key)).set('X-Request-Id', encodeURI(id) === id ? id : Buffer.from(id).toString('latin1'));
      expect(res.status).toBe(200);
      expect(res.headers['x-request-id']).toMatch(UUID);
    });

    it('is repeated in every error body as requestId, with docUrl linking to the code in the error reference', async () => {
      const errors = [
        await t.http.get('/v1/sections').set('X-Request-Id', 'req-unauthorized'),
        await t.http.get('/v1/sections/sect_unknown').set(bearer(key)).set('X-Request-Id', 'req-not-found'),
        await t.http.get('/nope').set('X-Request-Id', 'req-no-route'),
        await t.http.post('/v1/sections').set(bearer(key)).set('X-Request-Id', 'req-invalid').send({ name: '' }),
      ];
      expect(errors.map((res) => [res.status, res.body.requestId, res.body.docUrl])).toEqual([
        [401, 'req-unauthorized', 'http://help.test/docs/errors#unauthorized'],
        [404, 'req-not-found', 'http://help.test/docs/errors#not_found'],
        [404, 'req-no-route', 'http://help.test/docs/errors#not_found'],
        [400, 'req-invalid', 'http://help.test/docs/errors#invalid_request'],
      ]);
      const generated = await t.http.get('/v1/sections');
      expect(generated.body.requestId).toMatch(UUID);
      expect(generated.body.requestId).toBe(generated.headers['x-request-id']);
    });
  });

  describe('error reference (/docs/errors)', () => {
    it('has an entry for every code with its status and meaning, at the anchor docUrl points to', async () => {
      const res = await t.http.get('/docs/errors').expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      for (const code of ERROR_CODES) {
        const row = new RegExp(`<tr id="${code}"><td><a href="#${code}"><code>${code}</code></a></td><td>${HTTP_STATUS_BY_CODE[code]}</td><td>.{20,}</td></tr>`);
        expect({ code, listed: row.test(res.text) }).toEqual({ code, listed: true });
      }
    });
  });
});
