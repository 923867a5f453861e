import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { PruneWebhookDeliveriesUseCase } from '#webhooks';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { eventually } from '../support/eventually.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/** Delivery records (with their attempts) and relayed events are kept 30 days, then pruned by the hourly job. */
describe('pruning webhook deliveries', () => {
  let t: TestApp;
  let db: pg.Client;
  let receiver: WebhookReceiver;
  let key: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await startTestApp({ env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' } });
    db = new pg.Client({ connectionString: t.databaseUrl! });
    await db.connect();
    key = await t.key(['webhooks:manage']);
  });
  afterAll(async () => {
    await db?.end();
    await t?.close();
    await receiver?.close();
  });

  async function delivered(endpoint: string): Promise<string> {
    const sent = await t.http.post(`/v1/webhooks/${endpoint}/test`).set(bearer(key)).expect(202);
    const id = sent.body.delivery_id as string;
    await eventually(async () => (await t.http.get(`/v1/webhooks/${endpoint}/deliveries/${id}`).set(bearer(key))).body.status === 'success', `delivery ${id}`);
    return id;
  }

  it('deletes deliveries, their attempts and their events older than 30 days, and nothing newer', async () => {
    const endpoint = (await t.http.post('/v1/webhooks').set(bearer(key)).send({ url: receiver.url('/hook'), events: ['*'] }).expect(201)).body.id as string;
    const old = await delivered(endpoint);
    const recent = await delivered(endpoint);
    await db.query("UPDATE webhook_deliveries SET created_at = now() - interval '31 days' WHERE id = $1", [old]);
    await db.query("UPDATE outbox_events SET occurred_at = now() - interval '31 days' WHERE id = (SELECT event_id FROM webhook_deliveries WHERE id = $1)", [old]);

    const removed = await t.app.get(PruneWebhookDeliveriesUseCase).execute();

    expect(removed).toEqual({ deliveries: 1, events: 1 });
    const left = await db.query<{ id: string }>('SELECT id FROM webhook_deliveries ORDER BY id');
    expect(left.rows.map((r) => r.id)).toEqual([recent]);
    expect((await db.query('SELECT 1 FROM webhook_delivery_attempts WHERE delivery_id = $1', [old])).rowCount).toBe(0);
    expect((await db.query('SELECT 1 FROM webhook_delivery_attempts WHERE delivery_id = $1', [recent])).rowCount).toBe(1);
    expect((await t.http.get(`/v1/webhooks/${endpoint}/deliveries/${old}`).set(bearer(key))).status).toBe(404);
    expect(await t.app.get(PruneWebhookDeliveriesUseCase).execute()).toEqual({ deliveries: 0, events: 0 });
  });
});
