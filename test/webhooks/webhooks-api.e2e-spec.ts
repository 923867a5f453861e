import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import type { Response } from 'supertest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';
import { clockPast } from '../support/clock.js';
import { eventually } from '../support/eventually.js';
import { DELIVERY_ID, ISO_MS, ULID } from '../support/formats.js';
import { gate } from '../support/gate.js';
import { outcome } from '../support/outcome.js';
import { freshPath } from '../support/unique.js';
import { signed, startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import type { Delivery, Endpoint } from '../support/webhooks.js';

/**
 * Every /v1/webhooks route over HTTP (CONTRACT §9): endpoints, secrets and their rotation, delivery records,
 * manual retries and test events, with a real receiver on 127.0.0.1 and signatures checked by the public
 * Standard Webhooks library.
 */

jest.setTimeout(60_000);

const ENDPOINT_ID = new RegExp(`^whep_${ULID}$`);
const SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;
const UNKNOWN_ENDPOINT = 'whep_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';
const UNKNOWN_DELIVERY = 'whdl_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';
const DAY_MS = 24 * 3600 * 1000;

/** Every field of an endpoint as listed and returned by PATCH/enable/disable (no secret), sorted. */
const ENDPOINT_KEYS = [
  'createdAt',
  'description',
  'disabledAt',
  'disabledMessage',
  'disabledReason',
  'enabled',
  'events',
  'failureCount',
  'id',
  'lastFailureAt',
  'lastSuccessAt',
  'updatedAt',
  'url',
];
const DELIVERY_KEYS = ['attempts', 'createdAt', 'deliveredAt', 'error', 'eventType', 'id', 'nextRetryAt', 'responseStatus', 'status'];
const ATTEMPT_KEYS = ['attempt', 'attemptedAt', 'durationMs', 'error', 'responseExcerpt', 'responseStatus'];

const EVENT_TYPES = [
  'article.created',
  'article.updated',
  'article.published',
  'article.unpublished',
  'article.trashed',
  'article.restored',
  'article.moved',
  'collection.created',
  'collection.updated',
  'collection.deleted',
  'section.created',
  'section.updated',
  'section.deleted',
  'feedback.created',
  'feedback.updated',
  'task.completed',
  'task.failed',
  'webhook.test',
];

/** Addresses a webhook may never target by default: loopback, private, link-local, metadata, odd IP spellings. */
const PRIVATE_TARGETS = ['http://127.0.0.2/', 'http://[::1]/', 'http://localhost/', 'http://169.254.169.254/', 'http://10.0.0.1/', 'http://0x7f.1/'];

/** A fast retry schedule (2 attempts), quick sweeps, and http to the receiver on 127.0.0.1 only. */
const RECEIVER_ENV = {
  ...NO_LIMITS,
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
  WEBHOOK_RETRY_SCHEDULE: '1',
  WEBHOOK_SWEEP_INTERVAL_MS: '500',
};

type Json = Record<string, unknown>;

function sortedKeys(value: object): string[] {
  return Object.keys(value).sort();
}

describe('webhooks API', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let db: pg.Client;
  /** webhooks:manage, with the scopes to read every event. */
  let admin: string;
  /** webhooks:manage alone, and with content:read: what their endpoints may receive is limited. */
  let hooksOnly: string;
  let hooksAndRead: string;
  /** content:write only. */
  let writer: string;
  /** Every scope but webhooks:manage. */
  let allButWebhooks: string;

  async function create(body: Json, key = admin): Promise<Endpoint> {
    const res = await t.http.post('/v1/webhooks').set(bearer(key)).send(body);
    expect(outcome(res)).toMatchObject({ status: 201 });
    return res.body as Endpoint;
  }

  /** An endpoint at a fresh receiver path; returns it (with its secret) and the path. */
  async function endpointAt(label: string, events: string[] = ['*']): Promise<{ endpoint: Endpoint; path: string }> {
    const path = freshPath(label);
    return { endpoint: await create({ url: receiver.url(path), events }), path };
  }

  async function getEndpoint(id: string): Promise<Endpoint> {
    const res = await t.http.get(`/v1/webhooks/${id}`).set(bearer(admin));
    expect(outcome(res)).toMatchObject({ status: 200 });
    return res.body as Endpoint;
  }

  async function getDelivery(endpointId: string, deliveryId: string): Promise<Delivery> {
    const res = await t.http.get(`/v1/webhooks/${endpointId}/deliveries/${deliveryId}`).set(bearer(admin));
    expect(outcome(res)).toMatchObject({ status: 200 });
    return res.body as Delivery;
  }

  /** Polls the delivery until `done` holds for it. */
  async function deliveryWhen(endpointId: string, deliveryId: string, done: (d: Delivery) => boolean, what: string): Promise<Delivery> {
    return eventually(async () => {
      const delivery = await getDelivery(endpointId, deliveryId);
      return done(delivery) ? delivery : undefined;
    }, `delivery ${deliveryId}: ${what}`);
  }

  async function sendTest(endpointId: string): Promise<string> {
    const res = await t.http.post(`/v1/webhooks/${endpointId}/test`).set(bearer(admin));
    expect(outcome(res)).toMatchObject({ status: 202 });
    expect(res.body).toEqual({ delivery_id: expect.stringMatching(DELIVERY_ID) });
    return (res.body as { delivery_id: string }).delivery_id;
  }

  /** Every delivery of an endpoint across all pages of `page_size`, with an optional status filter. */
  async function allDeliveries(endpointId: string, pageSize: number, status?: string): Promise<{ deliveries: Delivery[]; pages: number }> {
    const deliveries: Delivery[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: Response = await t.http
        .get(`/v1/webhooks/${endpointId}/deliveries`)
        .query({ page_size: String(pageSize), ...(status ? { status } : {}), ...(cursor ? { start_cursor: cursor } : {}) })
        .set(bearer(admin));
      expect(outcome(res)).toMatchObject({ status: 200 });
      const page = res.body as { results: Delivery[]; has_more: boolean; next_cursor: string | null };
      expect(sortedKeys(page)).toEqual(['has_more', 'next_cursor', 'results']);
      expect(page.results.length).toBeLessThanOrEqual(pageSize);
      if (page.has_more) expect(page.next_cursor).toEqual(expect.any(String));
      else expect(page.next_cursor).toBeNull();
      deliveries.push(...page.results);
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor);
    return { deliveries, pages };
  }

  beforeAll(async () => {
    [receiver, t] = await Promise.all([startReceiver(), startTestApp({ env: RECEIVER_ENV })]);
    [admin, writer, allButWebhooks, hooksOnly, hooksAndRead] = await Promise.all([
      // Endpoints receive only what the key that chose their events may read: this one may read everything.
      t.key(['webhooks:manage', 'content:write', 'analytics:read']),
      t.key(['content:write']),
      t.key(['content:read', 'content:write', 'content:publish', 'analytics:read', 'conversations:read']),
      t.key(['webhooks:manage']),
      t.key(['webhooks:manage', 'content:read']),
    ]);
    db = new pg.Client({ connectionString: t.databaseUrl! });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await t?.close();
    await receiver?.close();
  });

  describe('events limited to what the key that chose them may read', () => {
    it('a named event the key may not read is 403 naming the scope; nothing is created', async () => {
      const before = (await db.query('SELECT count(*)::int AS n FROM webhook_endpoints')).rows[0].n;
      for (const [events, scope] of [[['article.created'], 'content:write'], [['feedback.created'], 'analytics:read'], [['task.completed'], 'content:write'], [['section.created'], 'content:read']] as const) {
        const res = await t.http.post('/v1/webhooks').set(bearer(hooksOnly)).send({ url: receiver.url('/denied'), events });
        expect(outcome(res)).toMatchObject({ status: 403, body: { code: 'insufficient_scope', error: expect.stringContaining(scope) } });
      }
      expect((await db.query('SELECT count(*)::int AS n FROM webhook_endpoints')).rows[0].n).toBe(before);
    });

    it('"*" from a webhooks:manage + content:read key receives sections and the test event, never drafts, feedback or tasks', async () => {
      const path = '/limited';
      const endpoint = await create({ url: receiver.url(path), events: ['*'] }, hooksAndRead);
      const section = await t.http.post('/v1/sections').set(bearer(writer)).send({ name: `Limited ${Date.now()}` });
      expect(section.status).toBe(201);
      const sectionId = section.body.id as string;
      const article = await t.http.post('/v1/articles').set(bearer(allButWebhooks)).send({ title: 'Secret draft for hooks', sectionId, markdown: 'Draft text' });
      expect(article.status).toBe(201);
      await t.http.post(`/v1/articles/${article.body.id}/publish`).set(bearer(allButWebhooks)).expect(200);
      await t.http.post(`/v1/public/articles/${article.body.id}/feedback`).send({ type: 'negative', feedback: 'Hidden', email: 'reader@example.com' }).expect(201);
      await t.http.post(`/v1/webhooks/${endpoint.id}/test`).set(bearer(hooksAndRead)).expect(202);
      const received = await receiver.waitFor((r) => r.path === path && r.json<{ type: string }>().type === 'webhook.test', 30_000);
      expect(received).toBeDefined();
      await new Promise((resolve) => setTimeout(resolve, 500));
      const types = receiver.requestsTo(path).map((r) => r.json<{ type: string }>().type);
      expect(types).toContain('section.created');
      expect(types.filter((type) => !['section.created', 'webhook.test'].includes(type))).toEqual([]);
      const bodies = receiver.requestsTo(path).map((r) => r.body).join('\n');
      expect(bodies).not.toContain('Secret draft for hooks');
      expect(bodies).not.toContain('reader@example.com');
      // No delivery of those events exists at all for this endpoint.
      const { rows } = await db.query('SELECT DISTINCT event_type FROM webhook_deliveries WHERE endpoint_id = $1', [endpoint.id]);
      expect(rows.map((row: { event_type: string }) => row.event_type).sort()).toEqual(['section.created', 'webhook.test']);
    });
  });

  describe('POST /webhooks', () => {
    it('creates an enabled endpoint with every field and returns its whsec_ secret', async () => {
      const url = receiver.url(freshPath('create'));
      const before = Date.now();
      const res = await t.http.post('/v1/webhooks').set(bearer(admin)).send({ url, events: ['article.published', 'article.created'], description: 'Docs sync' });
      expect(outcome(res)).toMatchObject({ status: 201 });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const endpoint = res.body as Endpoint;
      expect(sortedKeys(endpoint)).toEqual([...ENDPOINT_KEYS, 'secret'].sort());
      expect(endpoint).toEqual({
        id: expect.stringMatching(ENDPOINT_ID),
        url,
        events: ['article.published', 'article.created'],
        enabled: true,
        description: 'Docs sync',
        failureCount: 0,
        lastSuccessAt: null,
        lastFailureAt: null,
        disabledAt: null,
        disabledReason: null,
        disabledMessage: null,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: endpoint.createdAt,
        secret: expect.stringMatching(SECRET),
      });
      expect(Date.parse(endpoint.createdAt)).toBeGreaterThanOrEqual(before - 1000);
      // A usable Standard Webhooks secret: 32 random bytes.
      expect(Buffer.from(endpoint.secret!.slice('whsec_'.length), 'base64')).toHaveLength(32);
      expect(() => new Webhook(endpoint.secret!)).not.toThrow();

      const other = await create({ url, events: ['*'] });
      expect(other.description).toBeNull();
      expect(other.id).not.toBe(endpoint.id);
      expect(other.secret).not.toBe(endpoint.secret);
    });

    it('accepts every event type of the contract, and "*" alone', async () => {
      const all = await create({ url: receiver.url(freshPath('all-types')), events: EVENT_TYPES });
      expect(all.events).toEqual(EVENT_TYPES);
      const wildcard = await create({ url: receiver.url(freshPath('wildcard')), events: ['*'] });
      expect(wildcard.events).toEqual(['*']);
    });

    it('rejects bad events with 400 invalid_request and creates nothing', async () => {
      const count = async () => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM webhook_endpoints')).rows[0]!.n);
      const before = await count();
      const url = receiver.url(freshPath('bad-events'));
      const cases: unknown[] = [['article.exploded'], ['article.created', 'nope'], ['*', 'article.created'], ['article.created', '*'], [], 'article.created', [42], null];
      for (const events of cases) {
        const res = await t.http.post('/v1/webhooks').set(bearer(admin)).send({ url, events });
        expect({ events, ...outcome(res) }).toMatchObject({ events, status: 400, body: { code: 'invalid_request', error: expect.any(String) } });
      }
      const missing = await t.http.post('/v1/webhooks').set(bearer(admin)).send({ url });
      expect(outcome(missing)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      const unknown = await t.http.post('/v1/webhooks').set(bearer(admin)).send({ url, events: ['article.exploded'] });
      expect(unknown.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'events' })]));
      expect(await count()).toBe(before);
    });

    it('rejects a missing or malformed url, unknown fields, and targets outside the allowed networks', async () => {
      const bodies: Json[] = [
        { events: ['*'] },
        { url: 'not a url', events: ['*'] },
        { url: 'ftp://127.0.0.1/hook', events: ['*'] },
        { url: 42, events: ['*'] },
        { url: receiver.url('/x'), events: ['*'], enabled: false },
        { url: receiver.url('/x'), events: ['*'], secret: 'whsec_AAAA' },
        // Loopback, but outside WEBHOOK_ALLOWED_NETWORKS=127.0.0.1/32 (and not WEBHOOK_ALLOW_PRIVATE_NETWORKS).
        { url: 'http://127.0.0.2/', events: ['*'] },
        { url: 'http://[::1]/', events: ['*'] },
        { url: 'http://169.254.169.254/latest/meta-data/', events: ['*'] },
        { url: 'http://10.0.0.1/', events: ['*'] },
        { url: 'http://192.168.1.1/', events: ['*'] },
        { url: 'http://0.0.0.0/', events: ['*'] },
        { url: `${receiver.url('/long-')}${'a'.repeat(2100)}`, events: ['*'] },
        { url: receiver.url('/x'), events: ['*'], description: 'd'.repeat(501) },
      ];
      for (const body of bodies) {
        const res = await t.http.post('/v1/webhooks').set(bearer(admin)).send(body);
        expect({ body, res: outcome(res) }).toMatchObject({ body, res: { status: 400, body: { code: 'invalid_request' } } });
      }
    });

    describe('with the default network policy', () => {
      /** WEBHOOK_ALLOW_HTTP=true but no allowed networks: every private target is refused. */
      let strict: TestApp;
      /** Defaults: https only. */
      let httpsOnly: TestApp;
      let strictKey: string;
      let httpsKey: string;

      beforeAll(async () => {
        [strict, httpsOnly] = await Promise.all([startTestApp({ env: { WEBHOOK_ALLOW_HTTP: 'true' } }), startTestApp()]);
        [strictKey, httpsKey] = await Promise.all([strict.key(['webhooks:manage']), httpsOnly.key(['webhooks:manage'])]);
      });

      afterAll(async () => {
        await Promise.all([strict?.close(), httpsOnly?.close()]);
      });

      it.each(PRIVATE_TARGETS)('refuses %s with 400 invalid_request', async (url) => {
        const res = await strict.http.post('/v1/webhooks').set(bearer(strictKey)).send({ url, events: ['*'] });
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request', details: [expect.objectContaining({ field: 'url' })] } });
      });

      it('refuses other spellings of private addresses, and accepts a public one', async () => {
        for (const url of ['http://2130706433/', 'http://[::ffff:127.0.0.1]/', 'http://127.1/', 'http://[fd00::1]/', 'http://100.64.0.1/', receiver.url('/strict')]) {
          const res = await strict.http.post('/v1/webhooks').set(bearer(strictKey)).send({ url, events: ['*'] });
          expect({ url, res: outcome(res) }).toMatchObject({ url, res: { status: 400, body: { code: 'invalid_request' } } });
        }
        const ok = await strict.http.post('/v1/webhooks').set(bearer(strictKey)).send({ url: 'http://1.1.1.1/hooks', events: ['*'] });
        expect(outcome(ok)).toMatchObject({ status: 201, body: { url: 'http://1.1.1.1/hooks' } });
      });

      it('requires https without WEBHOOK_ALLOW_HTTP', async () => {
        for (const url of ['http://1.1.1.1/hooks', receiver.url('/plain')]) {
          const res = await httpsOnly.http.post('/v1/webhooks').set(bearer(httpsKey)).send({ url, events: ['*'] });
          expect({ url, res: outcome(res) }).toMatchObject({ url, res: { status: 400, body: { code: 'invalid_request', details: [expect.objectContaining({ field: 'url' })] } } });
        }
        const loopback = await httpsOnly.http.post('/v1/webhooks').set(bearer(httpsKey)).send({ url: 'https://127.0.0.1/hooks', events: ['*'] });
        expect(outcome(loopback)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
        const ok = await httpsOnly.http.post('/v1/webhooks').set(bearer(httpsKey)).send({ url: 'https://1.1.1.1/hooks', events: ['*'] });
        expect(outcome(ok)).toMatchObject({ status: 201, body: { url: 'https://1.1.1.1/hooks', secret: expect.stringMatching(SECRET) } });
        const patched = await httpsOnly.http.patch(`/v1/webhooks/${(ok.body as Endpoint).id}`).set(bearer(httpsKey)).send({ url: 'http://1.1.1.1/hooks' });
        expect(outcome(patched)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      });
    });
  });

  describe('GET /webhooks and GET /webhooks/{id}', () => {
    it('lists every endpoint newest first over cursor pages, never with a secret', async () => {
      const mine: Endpoint[] = [];
      for (let i = 0; i < 5; i++) mine.push((await endpointAt('list')).endpoint);
      const listed: Endpoint[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res: Response = await t.http
          .get('/v1/webhooks')
          .query({ page_size: '2', ...(cursor ? { start_cursor: cursor } : {}) })
          .set(bearer(admin));
        expect(outcome(res)).toMatchObject({ status: 200 });
        const page = res.body as { results: Endpoint[]; has_more: boolean; next_cursor: string | null };
        expect(sortedKeys(page)).toEqual(['has_more', 'next_cursor', 'results']);
        expect(page.results.length).toBeLessThanOrEqual(2);
        if (page.has_more) expect(page.next_cursor).toEqual(expect.any(String));
        else expect(page.next_cursor).toBeNull();
        listed.push(...page.results);
        cursor = page.next_cursor;
        pages += 1;
      } while (cursor);
      const total = Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM webhook_endpoints')).rows[0]!.n);
      expect(listed).toHaveLength(total);
      expect(pages).toBe(Math.ceil(total / 2));
      expect(new Set(listed.map((e) => e.id)).size).toBe(total);
      for (const endpoint of listed) {
        expect(sortedKeys(endpoint)).toEqual(ENDPOINT_KEYS);
        expect(JSON.stringify(endpoint)).not.toContain('whsec_');
      }
      // Newest first: createdAt descending (ties by ID, descending).
      for (let i = 1; i < listed.length; i++) {
        const [a, b] = [listed[i - 1]!, listed[i]!];
        expect(a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id)).toBe(true);
      }
      expect(listed.slice(0, 5).map((e) => e.id)).toEqual(mine.map((e) => e.id).reverse());

      const first = await t.http.get('/v1/webhooks').set(bearer(admin));
      expect(outcome(first)).toMatchObject({ status: 200 });
      expect((first.body as { results: Endpoint[] }).results.map((e) => e.id)).toEqual(listed.slice(0, 20).map((e) => e.id));
    });

    it('rejects bad page sizes and tampered cursors', async () => {
      for (const page_size of ['0', '101', 'ten']) {
        const res = await t.http.get('/v1/webhooks').query({ page_size }).set(bearer(admin));
        expect({ page_size, ...outcome(res) }).toMatchObject({ page_size, status: 400, body: { code: 'invalid_request' } });
      }
      const page = await t.http.get('/v1/webhooks').query({ page_size: '1' }).set(bearer(admin));
      const cursor = (page.body as { next_cursor: string }).next_cursor;
      expect(cursor).toEqual(expect.any(String));
      const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BB' : 'AA'}`;
      for (const start_cursor of [tampered, 'garbage']) {
        const res = await t.http.get('/v1/webhooks').query({ start_cursor }).set(bearer(admin));
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } });
      }
    });

    it('returns one endpoint with its deliveries and no secret; 404 for an unknown ID', async () => {
      const { endpoint } = await endpointAt('get-one', ['article.created']);
      const got = await getEndpoint(endpoint.id);
      expect(sortedKeys(got)).toEqual([...ENDPOINT_KEYS, 'deliveries'].sort());
      const { secret: _secret, ...withoutSecret } = endpoint;
      expect(got).toEqual({ ...withoutSecret, deliveries: [] });
      expect(JSON.stringify(got)).not.toContain('whsec_');
      for (const id of [UNKNOWN_ENDPOINT, 'nope', UNKNOWN_DELIVERY]) {
        const res = await t.http.get(`/v1/webhooks/${id}`).set(bearer(admin));
        expect(outcome(res)).toMatchObject({ status: 404, body: { code: 'not_found' } });
      }
    });
  });

  describe('deliveries', () => {
    it('GET /webhooks/{id} shows the 20 most recent deliveries, newest first; GET deliveries pages and filters them', async () => {
      const { endpoint, path } = await endpointAt('many');
      const sent: string[] = [];
      for (let i = 0; i < 22; i++) sent.push(await sendTest(endpoint.id));
      await receiver.waitForCount((r) => r.path === path, 22);
      const { deliveries: all } = await eventually(async () => {
        const page = await allDeliveries(endpoint.id, 100);
        return page.deliveries.every((d) => d.status === 'success') ? page : undefined;
      }, '22 successful deliveries');
      expect(all.map((d) => d.id)).toEqual([...sent].reverse());
      for (const delivery of all) {
        expect(sortedKeys(delivery)).toEqual(DELIVERY_KEYS);
        expect(delivery).toEqual({
          id: expect.stringMatching(DELIVERY_ID),
          eventType: 'webhook.test',
          status: 'success',
          responseStatus: 200,
          attempts: 1,
          error: null,
          createdAt: expect.stringMatching(ISO_MS),
          deliveredAt: expect.stringMatching(ISO_MS),
          nextRetryAt: null,
        });
      }

      const got = await getEndpoint(endpoint.id);
      expect(got.deliveries).toHaveLength(20);
      expect(got.deliveries).toEqual(all.slice(0, 20));
      expect(got.lastSuccessAt).toMatch(ISO_MS);
      expect(got.failureCount).toBe(0);

      const paged = await allDeliveries(endpoint.id, 5);
      expect(paged.pages).toBe(5);
      expect(paged.deliveries).toEqual(all);

      // One failure: 500 on both scheduled attempts.
      receiver.respond(path, { status: 500, body: 'down' });
      const failedId = await sendTest(endpoint.id);
      await deliveryWhen(endpoint.id, failedId, (d) => d.status === 'failed', 'failed');
      expect((await allDeliveries(endpoint.id, 100, 'failed')).deliveries.map((d) => d.id)).toEqual([failedId]);
      expect((await allDeliveries(endpoint.id, 7, 'success')).deliveries).toEqual(all);
      expect((await allDeliveries(endpoint.id, 100, 'pending')).deliveries).toEqual([]);
      const everything = await allDeliveries(endpoint.id, 100);
      expect(everything.deliveries.map((d) => d.id)).toEqual([failedId, ...all.map((d) => d.id)]);

      for (const status of ['done', 'SUCCESS', '']) {
        const res = await t.http.get(`/v1/webhooks/${endpoint.id}/deliveries`).query({ status }).set(bearer(admin));
        expect({ status, res: outcome(res) }).toMatchObject({ status, res: { status: 400, body: { code: 'invalid_request' } } });
      }
      for (const page_size of ['0', '101']) {
        const res = await t.http.get(`/v1/webhooks/${endpoint.id}/deliveries`).query({ page_size }).set(bearer(admin));
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      }
      // A cursor of this endpoint's list is foreign to another endpoint's list.
      const page = await t.http.get(`/v1/webhooks/${endpoint.id}/deliveries`).query({ page_size: '1' }).set(bearer(admin));
      const cursor = (page.body as { next_cursor: string }).next_cursor;
      const { endpoint: other } = await endpointAt('other');
      const foreign = await t.http.get(`/v1/webhooks/${other.id}/deliveries`).query({ start_cursor: cursor }).set(bearer(admin));
      expect(outcome(foreign)).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } });
      const unknown = await t.http.get(`/v1/webhooks/${UNKNOWN_ENDPOINT}/deliveries`).set(bearer(admin));
      expect(outcome(unknown)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    });

    it('GET /webhooks/{id}/deliveries/{deliveryId} shows every attempt with a response excerpt of at most 1 KiB', async () => {
      const { endpoint, path } = await endpointAt('excerpt');
      const body = `failure-body:${'x'.repeat(3000)}`;
      receiver.respond(path, { status: 500, headers: { 'content-type': 'text/plain' }, body });
      const deliveryId = await sendTest(endpoint.id);
      const delivery = await deliveryWhen(endpoint.id, deliveryId, (d) => d.status === 'failed', 'failed');
      expect(sortedKeys(delivery)).toEqual([...DELIVERY_KEYS, 'attemptHistory'].sort());
      expect(delivery).toMatchObject({ id: deliveryId, eventType: 'webhook.test', status: 'failed', responseStatus: 500, attempts: 2, deliveredAt: null, nextRetryAt: null });
      expect(delivery.error).toEqual(expect.any(String));
      const history = delivery.attemptHistory!;
      expect(history.map((a) => a.attempt)).toEqual([1, 2]);
      for (const attempt of history) {
        expect(sortedKeys(attempt)).toEqual(ATTEMPT_KEYS);
        expect(attempt.attemptedAt).toMatch(ISO_MS);
        expect(attempt.responseStatus).toBe(500);
        expect(Number.isInteger(attempt.durationMs) && attempt.durationMs >= 0).toBe(true);
        expect(attempt.error).toEqual(expect.any(String));
        expect(attempt.responseExcerpt!.length).toBeLessThanOrEqual(1024);
        expect(attempt.responseExcerpt!.length).toBeGreaterThan(0);
        expect(body.startsWith(attempt.responseExcerpt!)).toBe(true);
      }
      expect(history[0]!.attemptedAt <= history[1]!.attemptedAt).toBe(true);
      // Both attempts carried the same webhook-id: the delivery ID.
      const requests = receiver.requestsTo(path);
      expect(requests.map((r) => r.header('webhook-id'))).toEqual([deliveryId, deliveryId]);

      const { endpoint: other } = await endpointAt('excerpt-other');
      for (const [endpointId, id] of [
        [endpoint.id, UNKNOWN_DELIVERY],
        [other.id, deliveryId],
        [UNKNOWN_ENDPOINT, deliveryId],
        [endpoint.id, 'nope'],
      ] as const) {
        const res = await t.http.get(`/v1/webhooks/${endpointId}/deliveries/${id}`).set(bearer(admin));
        expect(outcome(res)).toMatchObject({ status: 404, body: { code: 'not_found' } });
      }
    });
  });

  describe('POST /webhooks/{id}/test', () => {
    it('queues a signed webhook.test for that endpoint only', async () => {
      const a = await endpointAt('test-a', ['article.created']);
      const b = await endpointAt('test-b', ['*']);
      const before = Date.now();
      const deliveryId = await sendTest(a.endpoint.id);
      const request = await receiver.waitFor((r) => r.path === a.path);
      expect(request.method).toBe('POST');
      expect(request.header('content-type')).toMatch(/^application\/json/);
      expect(request.header('webhook-id')).toBe(deliveryId);
      expect(request.header('webhook-timestamp')).toMatch(/^\d+$/);
      expect(request.header('webhook-signature')).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
      expect(new Webhook(a.endpoint.secret!).verify(request.body, signed(request))).toEqual(JSON.parse(request.body));
      expect(() => new Webhook(b.endpoint.secret!).verify(request.body, signed(request))).toThrow();
      const payload = request.json<{ type: string; timestamp: string; data: Json }>();
      expect(sortedKeys(payload)).toEqual(['data', 'timestamp', 'type']);
      expect(payload.type).toBe('webhook.test');
      expect(payload.timestamp).toMatch(ISO_MS);
      expect(Date.parse(payload.timestamp)).toBeGreaterThanOrEqual(before - 1000);
      expect(payload.data).toEqual(expect.any(Object));
      expect(request.body).not.toContain(a.endpoint.secret!);
      expect(request.body).not.toContain('whsec_');

      const delivery = await deliveryWhen(a.endpoint.id, deliveryId, (d) => d.status === 'success', 'success');
      expect(delivery).toMatchObject({ eventType: 'webhook.test', attempts: 1, responseStatus: 200, error: null, deliveredAt: expect.stringMatching(ISO_MS), nextRetryAt: null });

      // Only that endpoint: the test event has this one delivery, and the "*" endpoint has none.
      const { rows } = await db.query<{ n: string }>(
        'SELECT count(*) AS n FROM webhook_deliveries WHERE event_id = (SELECT event_id FROM webhook_deliveries WHERE id = $1)',
        [deliveryId],
      );
      expect(Number(rows[0]!.n)).toBe(1);
      // Give the relay a sweep or two to (wrongly) fan it out.
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect((await allDeliveries(b.endpoint.id, 100)).deliveries).toEqual([]);
      expect(receiver.requestsTo(b.path)).toEqual([]);

      const unknown = await t.http.post(`/v1/webhooks/${UNKNOWN_ENDPOINT}/test`).set(bearer(admin));
      expect(outcome(unknown)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    });
  });

  describe('PATCH /webhooks/{id}', () => {
    it('changes url (checked again), events and description; keeps the secret', async () => {
      const { endpoint } = await endpointAt('patch', ['article.created']);
      await clockPast(endpoint.updatedAt);
      const patch = async (body: Json, status = 200): Promise<Response> => {
        const res = await t.http.patch(`/v1/webhooks/${endpoint.id}`).set(bearer(admin)).send(body);
        expect({ body, res: outcome(res) }).toMatchObject({ body, res: { status } });
        if (status >= 400) expect(res.body).toMatchObject({ code: status === 404 ? 'not_found' : 'invalid_request' });
        return res;
      };

      const described = (await patch({ description: 'Slack relay', events: ['article.updated', 'article.published'] })).body as Endpoint;
      expect(sortedKeys(described)).toEqual(ENDPOINT_KEYS);
      expect(described).toMatchObject({ id: endpoint.id, url: endpoint.url, description: 'Slack relay', events: ['article.updated', 'article.published'], enabled: true, createdAt: endpoint.createdAt });
      expect(described.updatedAt > endpoint.updatedAt).toBe(true);

      const cleared = (await patch({ description: null })).body as Endpoint;
      expect(cleared.description).toBeNull();
      expect(cleared.events).toEqual(['article.updated', 'article.published']);

      const newPath = freshPath('patched');
      const moved = (await patch({ url: receiver.url(newPath), events: ['*'] })).body as Endpoint;
      expect(moved).toMatchObject({ url: receiver.url(newPath), events: ['*'], description: null });

      for (const body of [
        { url: 'http://10.0.0.1/' },
        { url: 'http://169.254.169.254/' },
        { url: 'http://127.0.0.2/' },
        { url: 'http://[::1]/' },
        { url: 'not a url' },
        { url: null },
        { events: ['*', 'article.created'] },
        { events: [] },
        { events: ['article.exploded'] },
        { events: null },
        { enabled: false },
        { secret: 'whsec_AAAA' },
        { description: 42 },
      ]) {
        await patch(body, 400);
      }
      const after = await getEndpoint(endpoint.id);
      expect(after).toMatchObject({ url: receiver.url(newPath), events: ['*'], description: null, enabled: true });

      // The secret did not change; the new URL receives the next delivery.
      const deliveryId = await sendTest(endpoint.id);
      const request = await receiver.waitFor((r) => r.path === newPath);
      expect(request.header('webhook-id')).toBe(deliveryId);
      expect(() => new Webhook(endpoint.secret!).verify(request.body, signed(request))).not.toThrow();

      const unknown = await t.http.patch(`/v1/webhooks/${UNKNOWN_ENDPOINT}`).set(bearer(admin)).send({ description: 'x' });
      expect(outcome(unknown)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    });
  });

  describe('DELETE /webhooks/{id}', () => {
    it('deletes the endpoint with its deliveries; then 404', async () => {
      const { endpoint } = await endpointAt('delete');
      const deliveryId = await sendTest(endpoint.id);
      await deliveryWhen(endpoint.id, deliveryId, (d) => d.status === 'success', 'success');

      const res = await t.http.delete(`/v1/webhooks/${endpoint.id}`).set(bearer(admin));
      expect(outcome(res)).toMatchObject({ status: 200, body: { id: endpoint.id, deleted: true } });
      for (const [method, path] of [
        ['get', `/v1/webhooks/${endpoint.id}`],
        ['delete', `/v1/webhooks/${endpoint.id}`],
        ['get', `/v1/webhooks/${endpoint.id}/deliveries`],
        ['get', `/v1/webhooks/${endpoint.id}/deliveries/${deliveryId}`],
        ['post', `/v1/webhooks/${endpoint.id}/deliveries/${deliveryId}/retry`],
        ['post', `/v1/webhooks/${endpoint.id}/test`],
      ] as const) {
        const gone = await t.http[method](path).set(bearer(admin));
        expect({ method, path, res: outcome(gone) }).toMatchObject({ res: { status: 404, body: { code: 'not_found' } } });
      }
      const deliveries = await db.query('SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 OR id = $2', [endpoint.id, deliveryId]);
      expect(deliveries.rows).toEqual([]);
      const attempts = await db.query('SELECT id FROM webhook_delivery_attempts WHERE delivery_id = $1', [deliveryId]);
      expect(attempts.rows).toEqual([]);
      const list = await t.http.get('/v1/webhooks').query({ page_size: '100' }).set(bearer(admin));
      expect((list.body as { results: Endpoint[] }).results.map((e) => e.id)).not.toContain(endpoint.id);
    });
  });

  describe('enable and disable', () => {
    it('disable stops the endpoint and says it was by hand; enable resets failureCount, disabledAt and the reason', async () => {
      const { endpoint, path } = await endpointAt('flaky');
      receiver.respond(path, { status: 500 });
      const deliveryId = await sendTest(endpoint.id);
      await deliveryWhen(endpoint.id, deliveryId, (d) => d.status === 'failed', 'failed');
      const failing = await getEndpoint(endpoint.id);
      expect(failing).toMatchObject({ enabled: true, failureCount: 2, lastFailureAt: expect.stringMatching(ISO_MS), disabledAt: null, disabledReason: null, disabledMessage: null });

      const disabled = await t.http.post(`/v1/webhooks/${endpoint.id}/disable`).set(bearer(admin));
      expect(outcome(disabled)).toMatchObject({ status: 200 });
      expect(sortedKeys(disabled.body)).toEqual(ENDPOINT_KEYS);
      // The key's ID (not a secret) tells which integration did it.
      const byKey = new RegExp(`^Disabled by hand through the API with key key_${ULID}\\.$`);
      expect(disabled.body).toMatchObject({ id: endpoint.id, enabled: false, disabledAt: expect.stringMatching(ISO_MS), failureCount: 2, disabledReason: 'manual', disabledMessage: expect.stringMatching(byKey) });
      expect(await getEndpoint(endpoint.id)).toMatchObject({ enabled: false, disabledAt: (disabled.body as Endpoint).disabledAt, disabledReason: 'manual', disabledMessage: (disabled.body as Endpoint).disabledMessage });
      const listed = await t.http.get('/v1/webhooks').query({ page_size: '100' }).set(bearer(admin));
      expect((listed.body as { results: Endpoint[] }).results.find((e) => e.id === endpoint.id)).toMatchObject({ disabledReason: 'manual', disabledMessage: expect.stringMatching(byKey) });
      // Disabling again changes nothing: the first time and reason stay.
      const twice = await t.http.post(`/v1/webhooks/${endpoint.id}/disable`).set(bearer(admin));
      expect(outcome(twice)).toMatchObject({ status: 200, body: { disabledAt: (disabled.body as Endpoint).disabledAt, disabledReason: 'manual', disabledMessage: (disabled.body as Endpoint).disabledMessage } });

      // Nothing is sent to a disabled endpoint, by hand either.
      receiver.respond(path, { status: 200 });
      const retry = await t.http.post(`/v1/webhooks/${endpoint.id}/deliveries/${deliveryId}/retry`).set(bearer(admin));
      expect(outcome(retry)).toMatchObject({ status: 409, body: { code: 'invalid_state' } });
      const test = await t.http.post(`/v1/webhooks/${endpoint.id}/test`).set(bearer(admin));
      expect(outcome(test)).toMatchObject({ status: 409, body: { code: 'invalid_state' } });
      expect(await getDelivery(endpoint.id, deliveryId)).toMatchObject({ status: 'failed', attempts: 2 });

      const enabled = await t.http.post(`/v1/webhooks/${endpoint.id}/enable`).set(bearer(admin));
      expect(outcome(enabled)).toMatchObject({ status: 200 });
      expect(sortedKeys(enabled.body)).toEqual(ENDPOINT_KEYS);
      expect(enabled.body).toMatchObject({ id: endpoint.id, enabled: true, failureCount: 0, disabledAt: null, disabledReason: null, disabledMessage: null, lastFailureAt: failing.lastFailureAt });
      expect(await getEndpoint(endpoint.id)).toMatchObject({ enabled: true, failureCount: 0, disabledAt: null, disabledReason: null, disabledMessage: null });

      // Enabling an enabled endpoint is a no-op that still answers 200.
      const again = await t.http.post(`/v1/webhooks/${endpoint.id}/enable`).set(bearer(admin));
      expect(outcome(again)).toMatchObject({ status: 200, body: { enabled: true, failureCount: 0, disabledAt: null, disabledReason: null, disabledMessage: null } });

      for (const action of ['enable', 'disable']) {
        const res = await t.http.post(`/v1/webhooks/${UNKNOWN_ENDPOINT}/${action}`).set(bearer(admin));
        expect(outcome(res)).toMatchObject({ status: 404, body: { code: 'not_found' } });
      }
    });

    it('disabling fails the pending deliveries with "endpoint disabled", waiting or in flight', async () => {
      const { endpoint, path } = await endpointAt('held');
      const held = gate();
      let answered = 0;
      let inFlightOk = '';
      // The first request fails (its delivery then waits for its retry); every later one waits for the gate and is
      // then answered 200 (the delivery inFlightOk) or 500 (any other).
      receiver.respond(path, async (request) => {
        if (request.nth === 1) return { status: 500 };
        await held.wait;
        answered += 1;
        return { status: request.header('webhook-id') === inFlightOk ? 200 : 500 };
      });
      const waitingId = await sendTest(endpoint.id);
      const waiting = await deliveryWhen(endpoint.id, waitingId, (d) => d.attempts >= 1, 'first attempt made');
      expect(waiting).toMatchObject({ status: 'pending', responseStatus: 500, nextRetryAt: expect.stringMatching(ISO_MS) });
      inFlightOk = await sendTest(endpoint.id);
      const inFlightFailing = await sendTest(endpoint.id);
      for (const id of [inFlightOk, inFlightFailing]) await receiver.waitFor((r) => r.path === path && r.header('webhook-id') === id);

      let disabled: Response;
      try {
        disabled = await t.http.post(`/v1/webhooks/${endpoint.id}/disable`).set(bearer(admin));
      } finally {
        held.open();
      }
      expect(outcome(disabled)).toMatchObject({ status: 200, body: { enabled: false, disabledAt: expect.stringMatching(ISO_MS), disabledReason: 'manual' } });
      const ids = [waitingId, inFlightOk, inFlightFailing];
      for (const id of ids) {
        expect(await getDelivery(endpoint.id, id)).toMatchObject({ status: 'failed', error: 'endpoint disabled', nextRetryAt: null, deliveredAt: null });
      }

      // The attempts in flight are answered afterwards: the deliveries stay failed and nothing more is sent.
      await eventually(async () => answered >= 2, 'the held requests answered');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      for (const id of ids) {
        const delivery = await getDelivery(endpoint.id, id);
        expect(delivery).toMatchObject({ status: 'failed', error: 'endpoint disabled', deliveredAt: null });
        // The attempt history stays consistent with the attempt count: attempts 1, 2, … attempts, each once.
        expect({ id, attempts: delivery.attempts, history: delivery.attemptHistory!.map((a) => a.attempt) }).toEqual({
          id,
          attempts: delivery.attempts,
          history: Array.from({ length: delivery.attempts }, (_, i) => i + 1),
        });
      }
      expect((await allDeliveries(endpoint.id, 100, 'pending')).deliveries).toEqual([]);
      // The waiting one: its first attempt (and a retry only if one had started before the disable).
      expect(receiver.requestsTo(path).filter((r) => r.header('webhook-id') === waitingId).length).toBeLessThanOrEqual(2);
      for (const id of [inFlightOk, inFlightFailing]) expect(receiver.requestsTo(path).filter((r) => r.header('webhook-id') === id)).toHaveLength(1);
      expect(await getEndpoint(endpoint.id)).toMatchObject({ enabled: false });
    });
  });

  describe('POST /webhooks/{id}/secret/rotate', () => {
    it('returns a new secret; for 24 hours deliveries carry a signature by the old one too', async () => {
      const { endpoint, path } = await endpointAt('rotate');
      const first = endpoint.secret!;
      const before = Date.now();
      const res = await t.http.post(`/v1/webhooks/${endpoint.id}/secret/rotate`).set(bearer(admin));
      expect(outcome(res)).toMatchObject({ status: 200 });
      const rotated = res.body as Endpoint & { previousSecretExpiresAt: string };
      expect(sortedKeys(rotated)).toEqual([...ENDPOINT_KEYS, 'previousSecretExpiresAt', 'secret'].sort());
      expect(rotated).toMatchObject({ id: endpoint.id, url: endpoint.url, enabled: true, secret: expect.stringMatching(SECRET), previousSecretExpiresAt: expect.stringMatching(ISO_MS) });
      const second = rotated.secret!;
      expect(second).not.toBe(first);
      const expires = Date.parse(rotated.previousSecretExpiresAt);
      expect(expires).toBeGreaterThanOrEqual(before + DAY_MS - 60_000);
      expect(expires).toBeLessThanOrEqual(Date.now() + DAY_MS + 60_000);
      expect(JSON.stringify(await getEndpoint(endpoint.id))).not.toContain('whsec_');

      const deliveryId = await sendTest(endpoint.id);
      const request = await receiver.waitFor((r) => r.path === path && r.header('webhook-id') === deliveryId);
      const signatures = request.header('webhook-signature')!.split(' ');
      expect(signatures).toHaveLength(2);
      for (const signature of signatures) expect(signature).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
      expect(new Webhook(first).verify(request.body, signed(request))).toEqual(JSON.parse(request.body));
      expect(new Webhook(second).verify(request.body, signed(request))).toEqual(JSON.parse(request.body));
      expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(request.body, signed(request))).toThrow();
      await deliveryWhen(endpoint.id, deliveryId, (d) => d.status === 'success', 'success');

      // Rotating again retires the first secret: the second and the third sign.
      const again = await t.http.post(`/v1/webhooks/${endpoint.id}/secret/rotate`).set(bearer(admin));
      expect(outcome(again)).toMatchObject({ status: 200 });
      const third = (again.body as Endpoint).secret!;
      expect(third).not.toBe(second);
      const nextId = await sendTest(endpoint.id);
      const next = await receiver.waitFor((r) => r.path === path && r.header('webhook-id') === nextId);
      expect(next.header('webhook-signature')!.split(' ')).toHaveLength(2);
      expect(() => new Webhook(second).verify(next.body, signed(next))).not.toThrow();
      expect(() => new Webhook(third).verify(next.body, signed(next))).not.toThrow();
      expect(() => new Webhook(first).verify(next.body, signed(next))).toThrow();

      const unknown = await t.http.post(`/v1/webhooks/${UNKNOWN_ENDPOINT}/secret/rotate`).set(bearer(admin));
      expect(outcome(unknown)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    });
  });

  describe('POST /webhooks/{id}/deliveries/{deliveryId}/retry', () => {
    it('sends a failed delivery again with the same webhook-id', async () => {
      const { endpoint, path } = await endpointAt('retry');
      receiver.respond(path, { status: 503, body: 'maintenance' });
      const deliveryId = await sendTest(endpoint.id);
      await deliveryWhen(endpoint.id, deliveryId, (d) => d.status === 'failed', 'failed');
      expect((await getEndpoint(endpoint.id)).failureCount).toBe(2);

      receiver.respond(path, { status: 204 });
      const res = await t.http.post(`/v1/webhooks/${endpoint.id}/deliveries/${deliveryId}/retry`).set(bearer(admin));
      expect(outcome(res)).toMatchObject({ status: 202 });
      expect(sortedKeys(res.body)).toEqual(DELIVERY_KEYS);
      expect(res.body).toMatchObject({ id: deliveryId, status: 'pending', eventType: 'webhook.test' });

      const delivered = await deliveryWhen(endpoint.id, deliveryId, (d) => d.status === 'success', 'success after the manual retry');
      expect(delivered).toMatchObject({ attempts: 3, responseStatus: 204, error: null, deliveredAt: expect.stringMatching(ISO_MS), nextRetryAt: null });
      expect(delivered.attemptHistory!.map((a) => [a.attempt, a.responseStatus])).toEqual([
        [1, 503],
        [2, 503],
        [3, 204],
      ]);
      const requests = receiver.requestsTo(path);
      expect(requests).toHaveLength(3);
      expect(requests.map((r) => r.header('webhook-id'))).toEqual([deliveryId, deliveryId, deliveryId]);
      expect(new Set(requests.map((r) => r.body)).size).toBe(1);
      for (const request of requests) expect(() => new Webhook(endpoint.secret!).verify(request.body, signed(request))).not.toThrow();
      expect(await getEndpoint(endpoint.id)).toMatchObject({ failureCount: 0, lastSuccessAt: expect.stringMatching(ISO_MS) });

      // A successful delivery can be sent again too; deliveredAt keeps the first success.
      const again = await t.http.post(`/v1/webhooks/${endpoint.id}/deliveries/${deliveryId}/retry`).set(bearer(admin));
      expect(outcome(again)).toMatchObject({ status: 202, body: { id: deliveryId, status: 'pending' } });
      await receiver.waitForCount((r) => r.path === path, 4);
      const redelivered = await deliveryWhen(endpoint.id, deliveryId, (d) => d.status === 'success', 'success after the second manual retry');
      expect(redelivered).toMatchObject({ attempts: 4, deliveredAt: delivered.deliveredAt });
      expect(receiver.requestsTo(path)[3]!.header('webhook-id')).toBe(deliveryId);

      for (const [endpointId, id] of [
        [endpoint.id, UNKNOWN_DELIVERY],
        [UNKNOWN_ENDPOINT, deliveryId],
      ] as const) {
        const missing = await t.http.post(`/v1/webhooks/${endpointId}/deliveries/${id}/retry`).set(bearer(admin));
        expect(outcome(missing)).toMatchObject({ status: 404, body: { code: 'not_found' } });
      }
      const { endpoint: other } = await endpointAt('retry-other');
      const foreign = await t.http.post(`/v1/webhooks/${other.id}/deliveries/${deliveryId}/retry`).set(bearer(admin));
      expect(outcome(foreign)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    });

    it('refuses a pending delivery with 409', async () => {
      const { endpoint, path } = await endpointAt('retry-pending');
      const held = gate();
      receiver.respond(path, async () => {
        await held.wait;
        return { status: 200 };
      });
      const deliveryId = await sendTest(endpoint.id);
      await receiver.waitFor((r) => r.path === path);
      try {
        expect(await getDelivery(endpoint.id, deliveryId)).toMatchObject({ status: 'pending' });
        const res = await t.http.post(`/v1/webhooks/${endpoint.id}/deliveries/${deliveryId}/retry`).set(bearer(admin));
        expect(outcome(res)).toMatchObject({ status: 409, body: { code: 'invalid_state' } });
      } finally {
        held.open();
      }
      await deliveryWhen(endpoint.id, deliveryId, (d) => d.status === 'success', 'success');
      expect(receiver.requestsTo(path)).toHaveLength(1);
    });
  });

  describe('authentication and scope', () => {
    let endpointId: string;
    let deliveryId: string;
    let routes: Array<{ method: 'get' | 'post' | 'patch' | 'delete'; path: string; body?: Json }>;

    beforeAll(async () => {
      const { endpoint } = await endpointAt('scoped');
      endpointId = endpoint.id;
      deliveryId = await sendTest(endpointId);
      await deliveryWhen(endpointId, deliveryId, (d) => d.status === 'success', 'success');
      routes = [
        { method: 'post', path: '/v1/webhooks', body: { url: receiver.url('/scoped-new'), events: ['*'] } },
        { method: 'get', path: '/v1/webhooks' },
        { method: 'get', path: `/v1/webhooks/${endpointId}` },
        { method: 'patch', path: `/v1/webhooks/${endpointId}`, body: { description: 'hijacked' } },
        { method: 'delete', path: `/v1/webhooks/${endpointId}` },
        { method: 'post', path: `/v1/webhooks/${endpointId}/enable` },
        { method: 'post', path: `/v1/webhooks/${endpointId}/disable` },
        { method: 'post', path: `/v1/webhooks/${endpointId}/secret/rotate` },
        { method: 'get', path: `/v1/webhooks/${endpointId}/deliveries` },
        { method: 'get', path: `/v1/webhooks/${endpointId}/deliveries/${deliveryId}` },
        { method: 'post', path: `/v1/webhooks/${endpointId}/deliveries/${deliveryId}/retry` },
        { method: 'post', path: `/v1/webhooks/${endpointId}/test` },
      ];
    });

    function call(route: (typeof routes)[number], key?: string): Promise<Response> {
      let request = t.http[route.method](route.path);
      if (key) request = request.set(bearer(key));
      return route.body ? request.send(route.body) : request;
    }

    it('answers 401 without a valid key on every route', async () => {
      for (const route of routes) {
        const res = await call(route);
        expect({ route, res: outcome(res) }).toMatchObject({ route, res: { status: 401, body: { code: 'unauthorized' } } });
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
        const bad = await call(route, 'hck_not_a_real_key_0000000000000000000000000000000');
        expect({ route, res: outcome(bad) }).toMatchObject({ route, res: { status: 401, body: { code: 'unauthorized' } } });
      }
    });

    it('answers 403 insufficient_scope naming webhooks:manage to keys without it, and changes nothing', async () => {
      const before = await getEndpoint(endpointId);
      const endpointCount = async () => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM webhook_endpoints')).rows[0]!.n);
      const count = await endpointCount();
      const sent = receiver.requests.length;
      for (const key of [writer, allButWebhooks]) {
        for (const route of routes) {
          const res = await call(route, key);
          expect({ route, res: outcome(res) }).toMatchObject({ route, res: { status: 403, body: { code: 'insufficient_scope', error: expect.stringContaining('webhooks:manage') } } });
        }
      }
      expect(await getEndpoint(endpointId)).toEqual(before);
      expect(await endpointCount()).toBe(count);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.requests.length).toBe(sent);
      // And the full-scope and legacy keys do get in.
      for (const key of [await t.key(), await t.key(null)]) {
        const res = await t.http.get(`/v1/webhooks/${endpointId}`).set(bearer(key));
        expect(outcome(res)).toMatchObject({ status: 200 });
      }
    });
  });
});
