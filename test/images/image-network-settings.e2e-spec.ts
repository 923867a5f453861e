import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';
import { type ImageServer, startImageServer } from '../support/image-server.js';

jest.setTimeout(60_000);

/**
 * A refused image address names the setting that would allow it, as webhook endpoints name theirs: an operator
 * reading the 502 knows what to change (or that nothing would, for cloud metadata addresses).
 */
describe('a refused image address names the IMAGE_* setting that would allow it', () => {
  let images: ImageServer;
  let strict: TestApp;
  let strictKey: string;
  let sectionId: string;

  async function refusal(app: TestApp, key: string, src: string): Promise<string> {
    const res = await app.http.post('/v1/articles').set(bearer(key)).send({ title: 'Image', sectionId, markdown: `![x](${src})` });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 502, code: 'image_upload_failed' });
    expect(res.body.details).toHaveLength(1);
    return res.body.details[0].message as string;
  }

  beforeAll(async () => {
    images = await startImageServer();
    strict = await startTestApp({ env: NO_LIMITS });
    strictKey = await strict.key(null);
    sectionId = (await strict.http.get('/v1/sections').set(bearer(strictKey)).expect(200)).body.results[0].id;
  });
  afterAll(async () => {
    await strict?.close();
    await images?.close();
  });

  it.each([
    ['an IP literal', () => `http://127.0.0.1:${images.port}/png`, /refused: 127\.0\.0\.1 is a loopback address; /],
    ['a host name resolving to it', () => `http://localhost:${images.port}/png`, /refused: localhost: 127\.0\.0\.1 is a loopback address; /],
    ['a private network address', () => 'http://10.1.2.3/x.png', /refused: 10\.1\.2\.3 is a private network address; /],
  ])('a loopback or private address (%s) names IMAGE_ALLOW_PRIVATE_NETWORKS and IMAGE_ALLOWED_NETWORKS', async (_label, src, reason) => {
    const message = await refusal(strict, strictKey, src());
    expect(message).toMatch(reason);
    expect(message).toMatch(/private addresses need IMAGE_ALLOW_PRIVATE_NETWORKS=true, or their range in IMAGE_ALLOWED_NETWORKS$/);
    expect(message).not.toMatch(/WEBHOOK_/);
  });

  it('an address no private-network setting covers names only IMAGE_ALLOWED_NETWORKS', async () => {
    const message = await refusal(strict, strictKey, 'http://240.0.0.1/x.png');
    expect(message).toMatch(/refused: 240\.0\.0\.1 is a reserved address; addresses that are not public need their range in IMAGE_ALLOWED_NETWORKS$/);
    expect(message).not.toMatch(/IMAGE_ALLOW_PRIVATE_NETWORKS/);
  });

  it('a cloud metadata address says no setting allows it', async () => {
    const message = await refusal(strict, strictKey, 'http://169.254.169.254/latest/meta-data/');
    expect(message).toMatch(/refused: 169\.254\.169\.254 is a cloud metadata address; cloud metadata addresses are refused whatever the settings$/);
    expect(message).not.toMatch(/IMAGE_ALLOW/);
  });

  it.each([
    ['IMAGE_ALLOW_PRIVATE_NETWORKS=true', { IMAGE_ALLOW_PRIVATE_NETWORKS: 'true' }],
    ['IMAGE_ALLOWED_NETWORKS=127.0.0.1/32', { IMAGE_ALLOWED_NETWORKS: '127.0.0.1/32' }],
  ])('the setting it names does allow the image: %s', async (_label, env) => {
    const open = await startTestApp({ env: { ...NO_LIMITS, ...env } });
    try {
      const key = await open.key(null);
      const section = (await open.http.get('/v1/sections').set(bearer(key)).expect(200)).body.results[0].id;
      await open.http.post('/v1/articles').set(bearer(key)).send({ title: 'Image', sectionId: section, markdown: `![x](http://127.0.0.1:${images.port}/png)` }).expect(201);
    } finally {
      await open.close();
    }
  });
});

describe('webhook endpoints name their settings the same way', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_ALLOW_HTTP: 'true' } });
    key = await t.key(null);
  });
  afterAll(() => t.close());

  it.each([
    ['http://127.0.0.2/hook', /127\.0\.0\.2 is a loopback address; private addresses need WEBHOOK_ALLOW_PRIVATE_NETWORKS=true, or their range in WEBHOOK_ALLOWED_NETWORKS$/],
    ['http://240.0.0.1/hook', /240\.0\.0\.1 is a reserved address; addresses that are not public need their range in WEBHOOK_ALLOWED_NETWORKS$/],
    ['http://169.254.169.254/hook', /169\.254\.169\.254 is a cloud metadata address; cloud metadata addresses are refused whatever the settings$/],
  ])('%s', async (url, message) => {
    const res = await t.http.post('/v1/webhooks').set(bearer(key)).send({ url, events: ['*'] });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'invalid_request' });
    expect(res.body.details).toEqual([{ field: 'url', message: expect.stringMatching(message) }]);
    expect(res.body.error).not.toMatch(/IMAGE_/);
  });
});
