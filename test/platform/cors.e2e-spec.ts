import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bearer, startTestApp, type TestApp } from '../support/app.js';

/** Cross-origin access: the public routes answer any origin; the rest of the API only the origins in CORS_ORIGINS. */
describe('CORS', () => {
  let closed: TestApp;
  let open: TestApp;

  beforeAll(async () => {
    closed = await startTestApp();
    open = await startTestApp({ env: { CORS_ORIGINS: 'https://help.example.com,http://127.0.0.1:8080' } });
  });
  afterAll(async () => {
    await closed?.close();
    await open?.close();
  });

  it('public routes answer any origin, preflight included, without credentials', async () => {
    const preflight = await closed.http
      .options('/v1/public/articles/art_1/feedback')
      .set('Origin', 'https://anywhere.example')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    expect(preflight.headers['access-control-allow-headers']).toMatch(/content-type/i);
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    const list = await closed.http.get('/v1/public/articles').set('Origin', 'https://anywhere.example');
    expect(list.status).toBe(200);
    expect(list.headers['access-control-allow-origin']).toBe('*');
  });

  it('by default the keyed API answers no cross-origin request', async () => {
    const key = await closed.key();
    const res = await closed.http.get('/v1/sections').set(bearer(key)).set('Origin', 'https://help.example.com');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await closed.http.options('/v1/sections').set('Origin', 'https://help.example.com').set('Access-Control-Request-Method', 'POST');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('with CORS_ORIGINS the whole API answers those origins (and exposes its headers), no others', async () => {
    const key = await open.key();
    for (const origin of ['https://help.example.com', 'http://127.0.0.1:8080']) {
      const preflight = await open.http
        .options('/v1/articles/art_1')
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'PATCH')
        .set('Access-Control-Request-Headers', 'authorization, content-type, if-match');
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe(origin);
      expect(preflight.headers['access-control-allow-headers']).toMatch(/if-match/i);
      const res = await open.http.get('/v1/sections').set(bearer(key)).set('Origin', origin);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers['access-control-expose-headers']).toMatch(/X-Request-Id/);
      expect(res.headers['vary']).toMatch(/Origin/i);
    }
    const other = await open.http.get('/v1/sections').set(bearer(key)).set('Origin', 'https://evil.example');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});
