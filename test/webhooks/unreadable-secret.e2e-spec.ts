import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { errorBody } from '../support/errors.js';

/**
 * An endpoint whose stored signing secret does not open with the configured keys (its row altered, or given another
 * row's sealed value) cannot sign anything: the routes that would send to it or re-seal it answer 409
 * invalid_state naming the endpoint and the settings (it was a 500); reading, listing and deleting it still work.
 */

jest.setTimeout(60_000);

const ENV = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' };

describe('a webhook endpoint whose stored secret does not open', () => {
  let t: TestApp;
  let db: pg.Client;
  let key: string;
  let tampered: string;

  beforeAll(async () => {
    t = await startTestApp({ env: ENV });
    db = new pg.Client({ connectionString: t.databaseUrl! });
    await db.connect();
    key = await t.key(['webhooks:manage']);
    const create = async (path: string) => (await t.http.post('/v1/webhooks').set(bearer(key)).send({ url: `http://127.0.0.1:9/${path}`, events: ['*'] }).expect(201)).body.id as string;
    tampered = await create('tampered');
    const other = await create('other');
    await db.query('UPDATE webhook_endpoints SET secret = (SELECT secret FROM webhook_endpoints WHERE id = $2) WHERE id = $1', [tampered, other]);
  });
  afterAll(async () => {
    await db?.end();
    await t?.close();
  });

  it('POST /webhooks/{id}/test is 409 invalid_state naming the endpoint and the key settings; no delivery is created', async () => {
    const res = await t.http.post(`/v1/webhooks/${tampered}/test`).set(bearer(key));
    expect({ status: res.status, body: res.body }).toEqual({
      status: 409,
      body: errorBody('invalid_state', expect.stringMatching(new RegExp(`^Webhook endpoint ${tampered} cannot sign deliveries: .*ENCRYPTION_KEY, ENCRYPTION_KEY_PREVIOUS`))),
    });
    expect((await db.query('SELECT 1 FROM webhook_deliveries WHERE endpoint_id = $1', [tampered])).rowCount).toBe(0);
  });

  it('the routes that change it are 409 too; reading, listing and deleting it work', async () => {
    for (const [method, path] of [
      ['post', `/v1/webhooks/${tampered}/secret/rotate`],
      ['post', `/v1/webhooks/${tampered}/disable`],
      ['post', `/v1/webhooks/${tampered}/enable`],
      ['patch', `/v1/webhooks/${tampered}`],
    ] as const) {
      const res = await t.http[method](path).set(bearer(key)).send(method === 'patch' ? { description: 'x' } : undefined);
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 409, code: 'invalid_state' });
    }
    await t.http.get(`/v1/webhooks/${tampered}`).set(bearer(key)).expect(200);
    const list = await t.http.get('/v1/webhooks').set(bearer(key)).expect(200);
    expect(list.body.results.map((e: { id: string }) => e.id)).toContain(tampered);
    await t.http.delete(`/v1/webhooks/${tampered}`).set(bearer(key)).expect(200);
  });
});
