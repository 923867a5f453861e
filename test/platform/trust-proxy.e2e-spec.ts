import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';
import { defaultSectionId } from '../support/sections.js';

jest.setTimeout(120_000);

/**
 * TRUST_PROXY decides the client address every per-address limit and the audit log use: without it X-Forwarded-For
 * is ignored (a client cannot choose its address); with the proxies named, the address they forwarded counts, and
 * only the hop they added (an address the client put in front of the header is not believed).
 */
describe('TRUST_PROXY and the client address', () => {
  const LIMIT = { ...NO_LIMITS, RATE_LIMIT_PUBLIC_FEEDBACK_PER_MINUTE: '2' };
  let direct: TestApp;
  let proxied: TestApp;
  let articleId: string;

  const feedback = (t: TestApp, forwardedFor?: string) => {
    const request = t.http.post(`/v1/public/articles/${articleId}/feedback`);
    if (forwardedFor) request.set('X-Forwarded-For', forwardedFor);
    return request.send({ type: 'positive', feedback: 'Thanks' });
  };

  beforeAll(async () => {
    direct = await startTestApp({ env: LIMIT });
    proxied = await startTestApp({ databaseUrl: direct.databaseUrl!, env: { ...LIMIT, TRUST_PROXY: 'loopback' } });
    const key = await direct.key(null);
    const sectionId = await defaultSectionId(direct, key);
    articleId = ((await direct.http.post('/v1/articles').set(bearer(key)).send({ title: 'Proxied', sectionId, markdown: 'Text.', publish: true }).expect(201)).body as { id: string }).id;
  });
  afterAll(async () => {
    await proxied?.close();
    await direct?.close();
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored: made-up addresses share the socket address budget', async () => {
    expect((await feedback(direct, '203.0.113.1')).status).toBe(201);
    expect((await feedback(direct, '203.0.113.2')).status).toBe(201);
    expect((await feedback(direct, '203.0.113.3')).status).toBe(429);
  });

  it('behind a named proxy, each forwarded address has its own budget; what the client prepends is not believed', async () => {
    for (const address of ['198.51.100.1', '198.51.100.1']) expect((await feedback(proxied, address)).status).toBe(201);
    expect((await feedback(proxied, '198.51.100.1')).status).toBe(429);
    // Another reader behind the same proxy is not limited by the first one's requests.
    expect((await feedback(proxied, '198.51.100.2')).status).toBe(201);
    // A client that sends its own X-Forwarded-For through the proxy: the proxy appends the real address, which counts.
    expect((await feedback(proxied, '192.0.2.99, 198.51.100.1')).status).toBe(429);
  });
});
