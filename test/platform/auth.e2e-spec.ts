import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Response } from 'supertest';
import { Clock } from '#core';
import { API_KEY_PREFIX, ApiKey, ListApiKeysUseCase, RevokeApiKeyUseCase } from '#gateway';
import { bearer, startTestApp, TEST_ACTOR, type TestApp } from '../support/app.js';
import { errorBody } from '../support/errors.js';

// Booting an app against a fresh database can take a few seconds on a busy machine. The e2e project's
// testTimeout is not applied (jest-circus takes testTimeout from the global config), so set it here.
jest.setTimeout(60_000);

/** The id of a key, found through its list entry (the plain key is all the harness returns). */
async function keyIdOf(t: TestApp, plain: string): Promise<string> {
  const hash = ApiKey.hash(plain);
  const keys = await t.app.get(ListApiKeysUseCase).execute();
  const key = keys.find((k) => k.props.keyHash === hash);
  if (!key) throw new Error('key not found');
  return key.id;
}

async function sectionCount(t: TestApp, key: string): Promise<number> {
  const res = await t.http.get('/v1/sections?page_size=100').set(bearer(key)).expect(200);
  return (res.body.results as unknown[]).length;
}

function expectUnauthorized(res: Response, wwwAuthenticate: string): void {
  expect(res.status).toBe(401);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toEqual(errorBody('unauthorized'));
  expect(res.headers['www-authenticate']).toBe(wwwAuthenticate);
}

const MISSING = 'Bearer realm="help-center"';
const INVALID = 'Bearer realm="help-center", error="invalid_token"';

describe('authentication (401 unauthorized, WWW-Authenticate)', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp({ redis: true });
    admin = await t.key();
  });
  afterAll(() => t.close());

  it('answers a request without Authorization with 401 and a bare Bearer challenge (no error attribute, RFC 6750 §3)', async () => {
    expectUnauthorized(await t.http.get('/v1/sections'), MISSING);
    expectUnauthorized(await t.http.get('/v1/helpdesk'), MISSING);
    expectUnauthorized(await t.http.delete('/v1/sections/sect_unknown'), MISSING);
  });

  it('refuses a write without a key and writes nothing', async () => {
    const before = await sectionCount(t, admin);
    expectUnauthorized(await t.http.post('/v1/sections').send({ name: 'No key' }), MISSING);
    expect(await sectionCount(t, admin)).toBe(before);
  });

  it.each([
    ['scheme without a token', 'Bearer'],
    ['scheme followed by blanks only', 'Bearer    '],
    ['two tokens', `Bearer ${API_KEY_PREFIX}${'a'.repeat(43)} extra`],
    ['the key without a scheme', `${API_KEY_PREFIX}${'a'.repeat(43)}`],
    ['Basic credentials', `Basic ${Buffer.from('user:password').toString('base64')}`],
    ['another scheme with an API-key-shaped token', `Token ${API_KEY_PREFIX}${'a'.repeat(43)}`],
    ['a token without the hck_ prefix', `Bearer sk_${'a'.repeat(43)}`],
    ['a token with a too short secret', `Bearer ${API_KEY_PREFIX}${'a'.repeat(39)}`],
    ['a token with characters outside base62', `Bearer ${API_KEY_PREFIX}${'a'.repeat(42)}-`],
    ['an unknown, well-formed key', `Bearer ${API_KEY_PREFIX}${'Z'.repeat(43)}`],
  ])('answers %s with 401 and error="invalid_token"', async (_label, header) => {
    expectUnauthorized(await t.http.get('/v1/sections').set('Authorization', header), INVALID);
  });

  it('treats a real key with the prefix changed as unknown', async () => {
    const key = await t.key(['content:read']);
    expectUnauthorized(await t.http.get('/v1/sections').set(bearer(`hcx_${key.slice(API_KEY_PREFIX.length)}`)), INVALID);
    // Only the exact key authenticates: one character changed is another (unknown) key.
    const last = key.at(-1) === 'a' ? 'b' : 'a';
    expectUnauthorized(await t.http.get('/v1/sections').set(bearer(`${key.slice(0, -1)}${last}`)), INVALID);
    await t.http.get('/v1/sections').set(bearer(key)).expect(200);
  });

  it('authenticates before reading a body: no key, or a made-up one, is 401 whatever the body (malformed, wrong type, 10 MiB), and nothing is written', async () => {
    const before = await sectionCount(t, admin);
    const huge = `{"name":"${'x'.repeat(10 * 1024 * 1024)}"}`;
    for (const header of [undefined, `Bearer ${API_KEY_PREFIX}${'Q'.repeat(43)}`]) {
      for (const [type, body] of [['application/json', '{not json'], ['text/plain', 'plain'], ['application/json', huge]] as const) {
        const request = t.http.post('/v1/sections').set('Content-Type', type);
        const res = await (header ? request.set('Authorization', header) : request).send(body);
        expectUnauthorized(res, header ? INVALID : MISSING);
      }
    }
    expect(await sectionCount(t, admin)).toBe(before);
    // With a valid key the body is read and judged as before; the public routes take bodies without a key.
    const key = await t.key(['content:write']);
    const malformed = await t.http.post('/v1/sections').set(bearer(key)).set('Content-Type', 'application/json').send('{not json');
    expect(malformed.status).toBe(400);
    const publicMalformed = await t.http.post('/v1/public/articles/art_00000000000000000000000000/feedback').set('Content-Type', 'application/json').send('{not json');
    expect(publicMalformed.status).toBe(400);
  });

  it('never accepts a real key without the Bearer scheme (bare, or under another scheme)', async () => {
    const key = await t.key(['content:read']);
    for (const header of [key, `Token ${key}`, `Basic ${key}`, `Bearer: ${key}`]) {
      expectUnauthorized(await t.http.get('/v1/sections').set('Authorization', header), INVALID);
    }
    await t.http.get('/v1/sections').set(bearer(key)).expect(200);
  });

  it('accepts the auth scheme in any letter case (RFC 7235 §2.1)', async () => {
    const key = await t.key(['content:read']);
    await t.http.get('/v1/sections').set('Authorization', `bearer ${key}`).expect(200);
    await t.http.get('/v1/sections').set('Authorization', `BEARER ${key}`).expect(200);
  });

  it('refuses a revoked key at once, on the very next request, reads and writes alike', async () => {
    const key = await t.key(['content:read', 'content:write']);
    await t.http.get('/v1/sections').set(bearer(key)).expect(200);
    const revoked = await t.app.get(RevokeApiKeyUseCase).execute(await keyIdOf(t, key), TEST_ACTOR);
    expect(revoked.revoked).toBe(true);

    expectUnauthorized(await t.http.get('/v1/sections').set(bearer(key)), INVALID);
    const before = await sectionCount(t, admin);
    expectUnauthorized(await t.http.post('/v1/sections').set(bearer(key)).send({ name: 'Revoked' }), INVALID);
    expect(await sectionCount(t, admin)).toBe(before);
    // Revoking one key leaves the others working.
    await t.http.get('/v1/sections').set(bearer(admin)).expect(200);
  });

  it('gives a legacy key (null scopes) full access: reads, writes and deletes', async () => {
    const legacy = await t.key(null);
    await t.http.get('/v1/helpdesk').set(bearer(legacy)).expect(200);
    const created = await t.http.post('/v1/sections').set(bearer(legacy)).send({ name: 'Legacy' }).expect(201);
    await t.http.patch(`/v1/sections/${created.body.id}`).set(bearer(legacy)).send({ name: 'Legacy 2' }).expect(200);
    await t.http.delete(`/v1/sections/${created.body.id}`).set(bearer(legacy)).expect(200);
    const collection = await t.http.post('/v1/collections').set(bearer(legacy)).send({ title: 'Legacy' }).expect(201);
    await t.http.post(`/v1/collections/${collection.body.id}/move`).set(bearer(legacy)).send({ section_id: null }).expect(200);
    await t.http.patch('/v1/helpdesk').set(bearer(legacy)).send({ name: 'Legacy desk' }).expect(200);
  });

  it('never echoes the key or a stack in a 401 body', async () => {
    const token = `${API_KEY_PREFIX}${'Q'.repeat(43)}`;
    const res = await t.http.get('/v1/sections').set(bearer(token));
    expect(res.status).toBe(401);
    expect(JSON.stringify(res.body)).not.toContain(token);
    expect(JSON.stringify(res.body)).not.toMatch(/\bat .+:\d+:\d+/);
  });
});

/** Reads the rate-limit headers of a response. */
function limits(res: Response): { limit: number; remaining: number; reset: number } {
  return {
    limit: Number(res.headers['x-ratelimit-limit']),
    remaining: Number(res.headers['x-ratelimit-remaining']),
    reset: Number(res.headers['x-ratelimit-reset']),
  };
}

describe('rate-limit headers on authenticated responses (default policy, 600 per minute per key)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ redis: true });
  });
  afterAll(() => t.close());

  it('carries X-RateLimit-* and the IETF RateLimit-Policy / RateLimit fields', async () => {
    const key = await t.key(['content:read']);
    const sentAt = Date.now();
    const res = await t.http.get('/v1/sections').set(bearer(key)).expect(200);

    expect(res.headers['x-ratelimit-limit']).toBe('600');
    expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
    const { remaining, reset } = limits(res);
    // A fresh key's first request in its window.
    expect(remaining).toBe(599);
    // Unix seconds (not milliseconds, not seconds-from-now), at the end of the current minute window.
    expect(reset * 1000).toBeGreaterThan(sentAt);
    expect(reset * 1000).toBeLessThanOrEqual(Date.now() + 61_000);

    expect(res.headers['ratelimit-policy']).toBe('"default";q=600;w=60');
    const match = /^"default";r=(\d+);t=(\d+)$/.exec(res.headers['ratelimit'] ?? '');
    expect(match).not.toBeNull();
    expect(Number(match![1])).toBe(remaining);
    expect(Number(match![2])).toBeGreaterThanOrEqual(1);
    expect(Number(match![2])).toBeLessThanOrEqual(60);
  });

  it('carries them on writes and on error responses after authentication too', async () => {
    const key = await t.key(['content:read', 'content:write']);
    const created = await t.http.post('/v1/sections').set(bearer(key)).send({ name: 'Headers' }).expect(201);
    expect(created.headers['x-ratelimit-limit']).toBe('600');
    const invalid = await t.http.post('/v1/sections').set(bearer(key)).send({ name: 42 }).expect(400);
    expect(invalid.headers['x-ratelimit-limit']).toBe('600');
    const missing = await t.http.get('/v1/sections/sect_unknown').set(bearer(key)).expect(404);
    expect(missing.headers['x-ratelimit-limit']).toBe('600');
  });

  it('leaves the public health probes out of the per-key budget (no rate-limit headers)', async () => {
    const res = await t.http.get('/healthz').expect(200);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    expect(res.headers['ratelimit-policy']).toBeUndefined();
  });
});

describe('rate limiting with RATE_LIMIT_REQUESTS_PER_MINUTE=3 (counters in Redis)', () => {
  let t: TestApp;
  let second: TestApp | undefined;
  let admin: string;
  /** The middle of a minute window: every request of a test falls into the same window. */
  let pinnedAt: number;

  beforeAll(async () => {
    t = await startTestApp({ redis: true, env: { RATE_LIMIT_REQUESTS_PER_MINUTE: '3' } });
    pinnedAt = Math.floor(Date.now() / 60_000) * 60_000 + 30_000;
    jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => new Date(pinnedAt));
    admin = await t.key(null);
  });
  afterAll(async () => {
    await second?.close();
    await t.close();
  });

  it('answers the 4th request of a key in one window with 429 rate_limited and Retry-After', async () => {
    const key = await t.key(['content:read']);
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const ok = await t.http.get('/v1/sections').set(bearer(key)).expect(200);
      expect(ok.headers['x-ratelimit-limit']).toBe('3');
      expect(ok.headers['ratelimit-policy']).toBe('"default";q=3;w=60');
      remaining.push(limits(ok).remaining);
    }
    expect(remaining).toEqual([2, 1, 0]);

    const limited = await t.http.get('/v1/sections').set(bearer(key));
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(errorBody('rate_limited'));
    const windowEnd = Math.floor(pinnedAt / 60_000) * 60 + 60;
    expect(limited.headers['retry-after']).toBe(String(windowEnd - pinnedAt / 1000));
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(limited.headers['x-ratelimit-reset']).toBe(String(windowEnd));
    expect(limited.headers['ratelimit']).toBe(`"default";r=0;t=${windowEnd - pinnedAt / 1000}`);
  });

  it('does not run a write that is over the limit', async () => {
    const key = await t.key(['content:write']);
    for (let i = 0; i < 3; i++) await t.http.get('/v1/helpdesk').set(bearer(key)).expect(200);
    const before = await t.http.get('/v1/sections?page_size=100').set(bearer(admin)).expect(200);
    await t.http.post('/v1/sections').set(bearer(key)).send({ name: 'Over the limit' }).expect(429);
    const after = await t.http.get('/v1/sections?page_size=100').set(bearer(admin)).expect(200);
    expect(after.body.results).toEqual(before.body.results);
  });

  it('gives every key a budget of its own', async () => {
    const first = await t.key(['content:read']);
    const other = await t.key(['content:read']);
    for (let i = 0; i < 3; i++) await t.http.get('/v1/sections').set(bearer(first)).expect(200);
    await t.http.get('/v1/sections').set(bearer(first)).expect(429);

    const res = await t.http.get('/v1/sections').set(bearer(other)).expect(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('2');
  });

  it('shares a key budget between API processes on the same Redis', async () => {
    second = await startTestApp({
      redis: true,
      redisPrefix: t.redisPrefix!,
      databaseUrl: t.databaseUrl!,
      env: { RATE_LIMIT_REQUESTS_PER_MINUTE: '3' },
    });
    jest.spyOn(second.app.get(Clock), 'now').mockImplementation(() => new Date(pinnedAt));
    const key = await t.key(['content:read']);
    await t.http.get('/v1/sections').set(bearer(key)).expect(200);
    await second.http.get('/v1/sections').set(bearer(key)).expect(200);
    await t.http.get('/v1/sections').set(bearer(key)).expect(200);
    const limited = await second.http.get('/v1/sections').set(bearer(key));
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
  });
});
