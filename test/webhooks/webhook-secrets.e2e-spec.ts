import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Webhook signing secrets are encrypted at rest (AES-256-GCM, bound to their endpoint), secrets stored in plain text
 * by earlier versions are encrypted at the next start, and the key can be rotated with ENCRYPTION_KEY and
 * ENCRYPTION_KEY_PREVIOUS. Every step is proven by a delivery whose signature verifies with the secret shown at
 * creation.
 */

jest.setTimeout(120_000);

const ENV = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' };
const KEY_1 = 'first-dedicated-encryption-key-0123456789abcdef';
const KEY_2 = 'second-dedicated-encryption-key-0123456789abcdef';

describe('webhook signing secrets at rest', () => {
  let first: TestApp;
  let receiver: WebhookReceiver;
  let db: pg.Client;
  const apps: TestApp[] = [];
  let endpoint: { id: string; secret: string };
  let sent = 0;

  const stored = async (): Promise<string> =>
    (await db.query<{ secret: string }>('SELECT secret FROM webhook_endpoints WHERE id = $1', [endpoint.id])).rows[0]!.secret;

  /** Another process on the same database, with `env`. */
  async function restartWith(env: Record<string, string>): Promise<TestApp> {
    const app = await startTestApp({ databaseUrl: first.databaseUrl!, env: { ...ENV, ...env } });
    apps.push(app);
    return app;
  }

  /** A test event through `app`, verified with the secret shown at creation. */
  async function deliversSigned(app: TestApp): Promise<void> {
    const key = await app.key(['webhooks:manage']);
    sent++;
    const res = await app.http.post(`/v1/webhooks/${endpoint.id}/test`).set(bearer(key));
    expect(res.status).toBeLessThan(300);
    const deliveries = await receiver.waitForCount(() => true, sent, 20_000);
    const latest = deliveries[sent - 1]!;
    expect(new Webhook(endpoint.secret).verify(latest.body, latest.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test' });
  }

  beforeAll(async () => {
    receiver = await startReceiver();
    first = await startTestApp({ env: ENV });
    apps.push(first);
    db = new pg.Client({ connectionString: first.databaseUrl! });
    await db.connect();
    const res = await first.http.post('/v1/webhooks').set(bearer(await first.key(['webhooks:manage']))).send({ url: receiver.url('/hook'), events: ['*'] });
    expect(res.status).toBe(201);
    endpoint = { id: res.body.id, secret: res.body.secret };
  });
  afterAll(async () => {
    await db?.end();
    for (const app of apps.reverse()) await app.close();
    await receiver?.close();
  });

  it('are stored encrypted: the row holds no trace of the secret, and deliveries are signed with it', async () => {
    const row = await stored();
    expect(row).toMatch(/^enc:v1:[0-9a-f]{8}:/);
    expect(row).not.toContain(endpoint.secret.replace(/^whsec_/, ''));
    await deliversSigned(first);
  });

  it('a secret stored in plain text by an earlier version is encrypted at the next start', async () => {
    await db.query('UPDATE webhook_endpoints SET secret = $2 WHERE id = $1', [endpoint.id, endpoint.secret]);
    const next = await restartWith({});
    expect(await stored()).toMatch(/^enc:v1:/);
    await deliversSigned(next);
  });

  it('a value copied from another endpoint does not sign anything', async () => {
    const other = await first.http.post('/v1/webhooks').set(bearer(await first.key(['webhooks:manage']))).send({ url: receiver.url('/other'), events: ['*'] });
    const [{ secret: foreign }] = (await db.query<{ secret: string }>('SELECT secret FROM webhook_endpoints WHERE id = $1', [other.body.id])).rows as [{ secret: string }];
    const own = await stored();
    await db.query('UPDATE webhook_endpoints SET secret = $2 WHERE id = $1', [endpoint.id, foreign]);
    const res = await first.http.post(`/v1/webhooks/${endpoint.id}/test`).set(bearer(await first.key(['webhooks:manage'])));
    expect(res.status).toBeGreaterThanOrEqual(400);
    await db.query('UPDATE webhook_endpoints SET secret = $2 WHERE id = $1', [endpoint.id, own]);
    await db.query('DELETE FROM webhook_endpoints WHERE id = $1', [other.body.id]);
  });

  it('rotation: ENCRYPTION_KEY takes over from APP_SECRET, then a second key with the first as ENCRYPTION_KEY_PREVIOUS', async () => {
    const underAppSecret = await stored();
    const withKey1 = await restartWith({ ENCRYPTION_KEY: KEY_1 });
    const underKey1 = await stored();
    expect(underKey1.split(':')[2]).not.toBe(underAppSecret.split(':')[2]);
    await deliversSigned(withKey1);

    const withKey2 = await restartWith({ ENCRYPTION_KEY: KEY_2, ENCRYPTION_KEY_PREVIOUS: KEY_1 });
    const underKey2 = await stored();
    expect(underKey2.split(':')[2]).not.toBe(underKey1.split(':')[2]);
    await deliversSigned(withKey2);

    // Everything is under the second key now: the first may be dropped.
    await deliversSigned(await restartWith({ ENCRYPTION_KEY: KEY_2 }));
  });

  it('a process without the key the secrets are sealed with refuses to start, naming the settings', async () => {
    await expect(startTestApp({ databaseUrl: first.databaseUrl!, env: { ...ENV, ENCRYPTION_KEY: KEY_1 } })).rejects.toThrow(
      /which is not configured: set ENCRYPTION_KEY or ENCRYPTION_KEY_PREVIOUS/,
    );
  });
});
