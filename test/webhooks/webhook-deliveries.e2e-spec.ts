import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import type { Response } from 'supertest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';
import { eventually } from '../support/eventually.js';
import { DELIVERY_ID, ISO_MS } from '../support/formats.js';
import { gate } from '../support/gate.js';
import { outcome } from '../support/outcome.js';
import { closedPort } from '../support/ports.js';
import { defaultSectionId } from '../support/sections.js';
import { freshPath, uniqueTitle } from '../support/unique.js';
import { type ReceivedRequest, signed, startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import type { Delivery, Endpoint } from '../support/webhooks.js';

/**
 * The delivery pipeline end to end (CONTRACT §9): an article write records an event in its transaction, the relay
 * fans it out to the subscribed, enabled endpoints, and each delivery is POSTed, signed (Standard Webhooks), to a
 * real receiver on 127.0.0.1, with scheduled retries, Retry-After, timeouts and auto-disable.
 */

jest.setTimeout(60_000);

/** http to the receiver on 127.0.0.1 only, quick sweeps. */
const RECEIVER_ENV = {
  ...NO_LIMITS,
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
  WEBHOOK_SWEEP_INTERVAL_MS: '500',
};

type Json = Record<string, unknown>;

interface Payload {
  type: string;
  timestamp: string;
  data: Json & { id: string };
}

let receiver: WebhookReceiver;

/** The API calls a suite makes, bound to one app and one full-access key. */
function client(t: TestApp, key: string, general: () => string) {
  const api = {
    async createEndpoint(url: string, events: string[] = ['*']): Promise<Endpoint> {
      const res = await t.http.post('/v1/webhooks').set(bearer(key)).send({ url, events });
      expect(outcome(res)).toMatchObject({ status: 201 });
      return res.body as Endpoint;
    },
    /** An endpoint at a fresh receiver path. */
    async endpointAt(label: string, events: string[] = ['*']): Promise<{ endpoint: Endpoint; path: string }> {
      const path = freshPath(label);
      return { endpoint: await api.createEndpoint(receiver.url(path), events), path };
    },
    async endpoint(id: string): Promise<Endpoint> {
      const res = await t.http.get(`/v1/webhooks/${id}`).set(bearer(key));
      expect(outcome(res)).toMatchObject({ status: 200 });
      return res.body as Endpoint;
    },
    async deliveries(endpointId: string): Promise<Delivery[]> {
      const res = await t.http.get(`/v1/webhooks/${endpointId}/deliveries`).query({ page_size: '100' }).set(bearer(key));
      expect(outcome(res)).toMatchObject({ status: 200 });
      return (res.body as { results: Delivery[] }).results;
    },
    async delivery(endpointId: string, deliveryId: string): Promise<Delivery> {
      const res = await t.http.get(`/v1/webhooks/${endpointId}/deliveries/${deliveryId}`).set(bearer(key));
      expect(outcome(res)).toMatchObject({ status: 200 });
      return res.body as Delivery;
    },
    /** The only delivery of an endpoint with its attempt history, once there is one and `done` holds. */
    async onlyDelivery(endpointId: string, done: (d: Delivery) => boolean, what: string): Promise<Delivery> {
      return eventually(async () => {
        const list = await api.deliveries(endpointId);
        if (list.length !== 1) return undefined;
        const delivery = await api.delivery(endpointId, list[0]!.id);
        return done(delivery) ? delivery : undefined;
      }, `${endpointId}: ${what}`);
    },
    async endpointWhen(id: string, done: (e: Endpoint) => boolean, what: string): Promise<Endpoint> {
      return eventually(async () => {
        const endpoint = await api.endpoint(id);
        return done(endpoint) ? endpoint : undefined;
      }, `${id}: ${what}`);
    },
    async createArticle(body: Json = {}): Promise<Json & { id: string }> {
      const res = await t.http
        .post('/v1/articles')
        .set(bearer(key))
        .send({ title: uniqueTitle('Webhook article'), sectionId: general(), markdown: 'Hello **world**', ...body });
      expect(outcome(res)).toMatchObject({ status: 201 });
      return res.body as Json & { id: string };
    },
    async article(id: string): Promise<Json> {
      const res = await t.http.get(`/v1/articles/${id}`).set(bearer(key));
      expect(outcome(res)).toMatchObject({ status: 200 });
      return res.body as Json;
    },
    async post(path: string, body?: Json): Promise<Response> {
      const request = t.http.post(path).set(bearer(key));
      return body ? request.send(body) : request;
    },
    /** Deletes every endpoint, so later tests' events go to their own endpoints only. */
    async deleteAllEndpoints(): Promise<void> {
      for (;;) {
        const res = await t.http.get('/v1/webhooks').query({ page_size: '100' }).set(bearer(key));
        const results = (res.body as { results: Endpoint[] }).results;
        if (results.length === 0) return;
        for (const endpoint of results) await t.http.delete(`/v1/webhooks/${endpoint.id}`).set(bearer(key));
      }
    },
  };
  return api;
}

/** A request of `path` carrying `type` about `articleId`. */
function eventFor(path: string, type: string, articleId: string): (r: ReceivedRequest) => boolean {
  return (r) => {
    if (r.path !== path) return false;
    const payload = r.json<Payload>();
    return payload.type === type && payload.data?.id === articleId;
  };
}

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

describe.each([
  { mode: 'jobs in process', redis: false },
  { mode: 'jobs on BullMQ (Redis)', redis: true },
])('an article write delivers a signed event: $mode', ({ redis }) => {
  let t: TestApp;
  let api: ReturnType<typeof client>;
  let general: string;

  beforeAll(async () => {
    t = await startTestApp({ redis, env: { ...RECEIVER_ENV, WEBHOOK_RETRY_SCHEDULE: '1,1' } });
    const key = await t.key();
    general = await defaultSectionId(t, key);
    api = client(t, key, () => general);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('POSTs { type, timestamp, data } with data as GET /articles/{id} returns it, signed with the endpoint secret', async () => {
    const { endpoint, path } = await api.endpointAt('happy');
    const created = await api.createArticle();
    const asRead = await api.article(created.id);

    const request = await receiver.waitFor(eventFor(path, 'article.created', created.id));
    expect(request.method).toBe('POST');
    expect(request.header('content-type')).toMatch(/^application\/json/);
    const webhookId = request.header('webhook-id')!;
    expect(webhookId).toMatch(DELIVERY_ID);
    expect(request.header('webhook-timestamp')).toMatch(/^\d+$/);
    expect(request.header('webhook-signature')).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
    // The public library verifies it (signature and timestamp tolerance) and returns the parsed body.
    const verified = new Webhook(endpoint.secret!).verify(request.body, signed(request)) as Payload;
    expect(verified).toEqual(JSON.parse(request.body));
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(request.body, signed(request))).toThrow();
    expect(Object.keys(verified).sort()).toEqual(['data', 'timestamp', 'type']);
    expect(verified.type).toBe('article.created');
    expect(verified.timestamp).toMatch(ISO_MS);
    expect(Date.parse(verified.timestamp)).toBeGreaterThanOrEqual(Date.parse(created.createdAt as string));
    expect(verified.data).toEqual(asRead);
    expect(verified.data).toMatchObject({ id: created.id, status: 'draft', contentHtml: expect.stringContaining('<strong>world</strong>') });

    // The delivery record: the webhook-id is its ID.
    const delivery = await eventually(async () => {
      const d = await api.delivery(endpoint.id, webhookId);
      return d.status === 'success' ? d : undefined;
    }, 'delivery success');
    expect(delivery).toMatchObject({ eventType: 'article.created', attempts: 1, responseStatus: 200, error: null, deliveredAt: expect.stringMatching(ISO_MS), nextRetryAt: null });

    // Publishing: article.published, with the article as it reads after the publish.
    const published = await api.post(`/v1/articles/${created.id}/publish`);
    expect(outcome(published)).toMatchObject({ status: 200 });
    const afterPublish = await api.article(created.id);
    const publishedRequest = await receiver.waitFor(eventFor(path, 'article.published', created.id));
    const publishedPayload = new Webhook(endpoint.secret!).verify(publishedRequest.body, signed(publishedRequest)) as Payload;
    expect(publishedPayload.data).toEqual(afterPublish);
    expect(publishedPayload.data).toMatchObject({ status: 'published', publishedAt: expect.stringMatching(ISO_MS) });
    expect(publishedRequest.header('webhook-id')).not.toBe(webhookId);

    const deliveries = await eventually(async () => {
      const list = await api.deliveries(endpoint.id);
      return list.length === 2 && list.every((d) => d.status === 'success') ? list : undefined;
    }, 'both deliveries successful');
    expect(deliveries.map((d) => d.eventType)).toEqual(['article.published', 'article.created']);
    expect(await api.endpoint(endpoint.id)).toMatchObject({ failureCount: 0, lastSuccessAt: expect.stringMatching(ISO_MS), lastFailureAt: null });
  });

  it('retries a failed attempt after the scheduled delay, with the same webhook-id', async () => {
    const { endpoint, path } = await api.endpointAt('retry-mode', ['article.created']);
    receiver.respond(path, (request) => (request.nth === 1 ? { status: 502, body: 'bad gateway' } : { status: 200 }));
    const article = await api.createArticle();
    const delivered = await eventually(async () => {
      const [only] = await api.deliveries(endpoint.id);
      return only?.status === 'success' ? only : undefined;
    }, 'success on the retry');
    expect(delivered).toMatchObject({ attempts: 2, responseStatus: 200, error: null, nextRetryAt: null });
    const requests = receiver.requestsTo(path);
    expect(requests.map((r) => r.header('webhook-id'))).toEqual([delivered.id, delivered.id]);
    expect(requests[1]!.receivedAt.getTime()).toBeGreaterThanOrEqual(requests[0]!.receivedAt.getTime() + 1000 - 50);
    for (const request of requests) {
      expect((new Webhook(endpoint.secret!).verify(request.body, signed(request)) as Payload).data.id).toBe(article.id);
    }
    const history = (await api.delivery(endpoint.id, delivered.id)).attemptHistory!;
    expect(history.map((a) => [a.attempt, a.responseStatus])).toEqual([
      [1, 502],
      [2, 200],
    ]);
    expect(await api.endpoint(endpoint.id)).toMatchObject({ failureCount: 0, lastFailureAt: expect.stringMatching(ISO_MS), lastSuccessAt: expect.stringMatching(ISO_MS) });
  });
});

describe('delivery pipeline (jobs in process)', () => {
  let t: TestApp;
  let api: ReturnType<typeof client>;
  let general: string;

  beforeAll(async () => {
    // Three attempts a second apart; a timeout long enough for a receiver the test holds for a moment.
    t = await startTestApp({ env: { ...RECEIVER_ENV, WEBHOOK_RETRY_SCHEDULE: '1,1', WEBHOOK_TIMEOUT_MS: '5000' } });
    const key = await t.key();
    general = await defaultSectionId(t, key);
    api = client(t, key, () => general);
  });

  afterEach(async () => {
    await api.deleteAllEndpoints();
  });

  afterAll(async () => {
    await t?.close();
  });

  it('delivers an event only to the enabled endpoints subscribed to it', async () => {
    const created = await api.endpointAt('only-created', ['article.created']);
    const published = await api.endpointAt('only-published', ['article.published']);
    const testOnly = await api.endpointAt('only-test', ['webhook.test']);
    const all = await api.endpointAt('all', ['*']);
    const off = await api.endpointAt('off', ['*']);
    expect(outcome(await api.post(`/v1/webhooks/${off.endpoint.id}/disable`))).toMatchObject({ status: 200 });

    const article = await api.createArticle();
    await receiver.waitFor(eventFor(created.path, 'article.created', article.id));
    await receiver.waitFor(eventFor(all.path, 'article.created', article.id));
    // One event's deliveries are created together: nothing more is coming for it.
    const types = async (endpoint: Endpoint) => (await api.deliveries(endpoint.id)).map((d) => d.eventType);
    expect(await types(created.endpoint)).toEqual(['article.created']);
    expect(await types(all.endpoint)).toEqual(['article.created']);
    expect(await types(published.endpoint)).toEqual([]);
    expect(await types(testOnly.endpoint)).toEqual([]);
    expect(await types(off.endpoint)).toEqual([]);

    expect(outcome(await api.post(`/v1/articles/${article.id}/publish`))).toMatchObject({ status: 200 });
    await receiver.waitFor(eventFor(published.path, 'article.published', article.id));
    await receiver.waitFor(eventFor(all.path, 'article.published', article.id));
    expect(await types(created.endpoint)).toEqual(['article.created']);
    expect(await types(published.endpoint)).toEqual(['article.published']);
    expect(await types(all.endpoint)).toEqual(['article.published', 'article.created']);
    expect(await types(testOnly.endpoint)).toEqual([]);
    expect(await types(off.endpoint)).toEqual([]);
    expect(receiver.requestsTo(off.path)).toEqual([]);
    expect(receiver.requestsTo(testOnly.path)).toEqual([]);
    expect(receiver.requestsTo(created.path)).toHaveLength(1);
  });

  it('records a failed attempt, retries on schedule, and a success resets the endpoint', async () => {
    const { endpoint, path } = await api.endpointAt('fail-then-succeed');
    const held = gate();
    receiver.respond(path, async (request) => {
      if (request.nth === 1) return { status: 500, body: 'boom' };
      await held.wait;
      return { status: 200, body: 'ok' };
    });
    const article = await api.createArticle();
    // The retry is in flight (held): the record shows the first attempt.
    await receiver.waitFor((r) => r.path === path && r.nth === 2);
    let pending: Delivery;
    try {
      pending = await api.onlyDelivery(endpoint.id, () => true, 'one delivery');
      const failing = await api.endpoint(endpoint.id);
      expect(failing).toMatchObject({ enabled: true, failureCount: 1, lastFailureAt: expect.stringMatching(ISO_MS), lastSuccessAt: null });
    } finally {
      held.open();
    }
    expect(pending).toMatchObject({ eventType: 'article.created', status: 'pending', attempts: 1, responseStatus: 500, deliveredAt: null });
    expect(pending.error).toEqual(expect.stringContaining('500'));
    expect(pending.nextRetryAt).toMatch(ISO_MS);
    expect(pending.attemptHistory).toEqual([
      { attempt: 1, attemptedAt: expect.stringMatching(ISO_MS), responseStatus: 500, durationMs: expect.any(Number), error: pending.error, responseExcerpt: 'boom' },
    ]);
    expect(Date.parse(pending.nextRetryAt!)).toBeGreaterThanOrEqual(Date.parse(pending.attemptHistory![0]!.attemptedAt) + 1000);

    const delivered = await api.onlyDelivery(endpoint.id, (d) => d.status === 'success', 'success on the retry');
    expect(delivered).toMatchObject({ id: pending.id, attempts: 2, responseStatus: 200, error: null, deliveredAt: expect.stringMatching(ISO_MS), nextRetryAt: null });
    expect(delivered.attemptHistory!.map((a) => [a.attempt, a.responseStatus, a.error === null])).toEqual([
      [1, 500, false],
      [2, 200, true],
    ]);
    const recovered = await api.endpoint(endpoint.id);
    expect(recovered).toMatchObject({ failureCount: 0, lastSuccessAt: expect.stringMatching(ISO_MS), lastFailureAt: expect.stringMatching(ISO_MS) });

    // The same message twice: same webhook-id and body, each attempt signed.
    const requests = receiver.requestsTo(path);
    expect(requests).toHaveLength(2);
    expect(requests.map((r) => r.header('webhook-id'))).toEqual([pending.id, pending.id]);
    expect(requests[1]!.body).toBe(requests[0]!.body);
    for (const request of requests) expect(() => new Webhook(endpoint.secret!).verify(request.body, signed(request))).not.toThrow();
    expect(requests[0]!.json<Payload>().data.id).toBe(article.id);
  });

  it('fails the delivery after the last scheduled attempt', async () => {
    const { endpoint, path } = await api.endpointAt('always-500');
    receiver.respond(path, { status: 500, body: 'still broken' });
    await api.createArticle();
    const failed = await api.onlyDelivery(endpoint.id, (d) => d.status === 'failed', 'failed');
    expect(failed).toMatchObject({ attempts: 3, responseStatus: 500, nextRetryAt: null, deliveredAt: null, error: expect.stringContaining('500') });
    expect(failed.attemptHistory!.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(receiver.requestsTo(path)).toHaveLength(3);
    // Below the auto-disable threshold (10 by default): still enabled.
    expect(await api.endpoint(endpoint.id)).toMatchObject({ enabled: true, failureCount: 3, disabledAt: null, disabledReason: null, disabledMessage: null });
    // Nothing more is sent.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.requestsTo(path)).toHaveLength(3);
    expect((await api.delivery(endpoint.id, failed.id)).attempts).toBe(3);
  });

  it('counts a redirect as a failure and does not follow it', async () => {
    const { endpoint, path } = await api.endpointAt('redirect');
    const target = freshPath('redirect-target');
    const statuses = [302, 307, 301];
    receiver.respond(path, (request) => ({ status: statuses[request.nth - 1] ?? 308, headers: { location: receiver.url(target) } }));
    await api.createArticle();
    const failed = await api.onlyDelivery(endpoint.id, (d) => d.status === 'failed', 'failed');
    expect(failed).toMatchObject({ attempts: 3, responseStatus: 301, deliveredAt: null, nextRetryAt: null });
    expect(failed.error).toEqual(expect.any(String));
    expect(failed.attemptHistory!.map((a) => a.responseStatus)).toEqual(statuses);
    for (const attempt of failed.attemptHistory!) expect(attempt.error).toEqual(expect.any(String));
    expect(receiver.requestsTo(target)).toEqual([]);
    expect(await api.endpoint(endpoint.id)).toMatchObject({ failureCount: 3, lastSuccessAt: null });
  });

  it('honours a Retry-After on 429 and 503 when it asks for longer than the schedule', async () => {
    const tooMany = await api.endpointAt('429', ['article.created']);
    const unavailable = await api.endpointAt('503', ['article.created']);
    const shorter = await api.endpointAt('429-short', ['article.created']);
    receiver.respond(tooMany.path, (r) => (r.nth === 1 ? { status: 429, headers: { 'retry-after': '3' } } : { status: 200 }));
    receiver.respond(unavailable.path, (r) => (r.nth === 1 ? { status: 503, headers: { 'retry-after': new Date(Date.now() + 4500).toUTCString() } } : { status: 200 }));
    receiver.respond(shorter.path, (r) => (r.nth === 1 ? { status: 429, headers: { 'retry-after': '0' } } : { status: 200 }));
    await api.createArticle();

    /** ms from the first attempt to the retry it scheduled; null when the retry already happened. */
    const retryGap = async (endpoint: Endpoint, status: number): Promise<number | null> => {
      const delivery = await api.onlyDelivery(endpoint.id, (d) => d.attempts >= 1, 'first attempt');
      const first = delivery.attemptHistory![0]!;
      expect(first.responseStatus).toBe(status);
      if (delivery.attempts !== 1) return null;
      expect(delivery).toMatchObject({ status: 'pending', responseStatus: status, nextRetryAt: expect.stringMatching(ISO_MS) });
      return Date.parse(delivery.nextRetryAt!) - Date.parse(first.attemptedAt);
    };
    const [waited429, waited503, waitedShort] = await Promise.all([retryGap(tooMany.endpoint, 429), retryGap(unavailable.endpoint, 503), retryGap(shorter.endpoint, 429)]);
    expect(waited429).toBeGreaterThanOrEqual(3000);
    // The HTTP date has whole seconds: more than 3 of the 4.5 seconds asked for remain.
    expect(waited503).toBeGreaterThanOrEqual(3000);
    // A shorter Retry-After does not shorten the schedule (1 s).
    if (waitedShort !== null) expect(waitedShort).toBeGreaterThanOrEqual(1000);

    for (const { endpoint, path, status } of [
      { ...tooMany, status: 429 },
      { ...unavailable, status: 503 },
    ]) {
      const delivered = await api.onlyDelivery(endpoint.id, (d) => d.status === 'success', 'success after Retry-After');
      expect(delivered.attemptHistory!.map((a) => a.responseStatus)).toEqual([status, 200]);
      // The retry was not sent before the time it was scheduled for.
      const [first, second] = receiver.requestsTo(path);
      expect(second!.receivedAt.getTime()).toBeGreaterThanOrEqual(first!.receivedAt.getTime() + 3000 - 50);
    }
    expect((await api.onlyDelivery(shorter.endpoint.id, (d) => d.status === 'success', 'success')).attempts).toBe(2);
  });

  it('disables an endpoint at once when it answers 410 Gone', async () => {
    const { endpoint, path } = await api.endpointAt('gone');
    receiver.respond(path, { status: 410, body: 'gone' });
    const article = await api.createArticle({ publish: true });
    const disabled = await api.endpointWhen(endpoint.id, (e) => !e.enabled, 'disabled');
    expect(disabled).toMatchObject({
      enabled: false,
      disabledAt: expect.stringMatching(ISO_MS),
      lastSuccessAt: null,
      disabledReason: 'gone',
      disabledMessage: 'Disabled at once: the receiver answered HTTP 410 Gone.',
    });
    // Disabling it by hand now changes nothing: it keeps its reason.
    expect(outcome(await api.post(`/v1/webhooks/${endpoint.id}/disable`))).toMatchObject({
      status: 200,
      body: { disabledAt: disabled.disabledAt, disabledReason: 'gone', disabledMessage: disabled.disabledMessage },
    });
    const deliveries = await eventually(async () => {
      const list = await api.deliveries(endpoint.id);
      return list.length === 2 && list.every((d) => d.status === 'failed') ? list : undefined;
    }, 'both deliveries failed');
    // The one answered 410 failed with it; the other, still pending then, with "endpoint disabled".
    const gone = deliveries.filter((d) => d.responseStatus === 410);
    expect(gone.length).toBeGreaterThanOrEqual(1);
    for (const d of deliveries) expect(d.nextRetryAt).toBeNull();
    expect(gone[0]).toMatchObject({ attempts: 1, status: 'failed' });
    expect(deliveries.filter((d) => d.error === 'endpoint disabled').length + gone.length).toBeGreaterThanOrEqual(2);
    expect(receiver.requestsTo(path).length).toBeLessThanOrEqual(2);

    // Later events skip it.
    const barrier = await api.endpointAt('after-gone', ['article.updated']);
    const res = await t.http.patch(`/v1/articles/${article.id}`).set(bearer(await t.key())).send({ title: uniqueTitle('Renamed') });
    expect(outcome(res)).toMatchObject({ status: 200 });
    await receiver.waitFor(eventFor(barrier.path, 'article.updated', article.id));
    expect(await api.deliveries(endpoint.id)).toHaveLength(2);
  });

  it('keeps delivering to a healthy endpoint while another one hangs or refuses connections', async () => {
    const healthy = await api.endpointAt('healthy');
    const hanging = await api.endpointAt('black-hole');
    const refused = await api.createEndpoint(`http://127.0.0.1:${await closedPort()}/hooks`);
    const held = gate();
    receiver.respond(hanging.path, async () => {
      await held.wait;
      return { status: 500 };
    });
    try {
      const articles = [await api.createArticle(), await api.createArticle(), await api.createArticle()];
      // Every event reaches the healthy endpoint while the black hole still holds its first requests.
      for (const article of articles) await receiver.waitFor(eventFor(healthy.path, 'article.created', article.id));
      const healthyDeliveries = await eventually(async () => {
        const list = await api.deliveries(healthy.endpoint.id);
        return list.length === 3 && list.every((d) => d.status === 'success') ? list : undefined;
      }, 'three successful deliveries to the healthy endpoint');
      for (const d of healthyDeliveries) expect(d).toMatchObject({ attempts: 1, responseStatus: 200 });
      expect(await api.endpoint(healthy.endpoint.id)).toMatchObject({ failureCount: 0, lastFailureAt: null });
      const stuck = await api.deliveries(hanging.endpoint.id);
      expect(stuck).toHaveLength(3);
      for (const d of stuck) expect(d).toMatchObject({ status: 'pending', deliveredAt: null });
    } finally {
      held.open();
    }
    // The others keep failing: HTTP 500 from the black hole, no response at all from the closed port.
    const failing = await eventually(async () => {
      const list = await api.deliveries(hanging.endpoint.id);
      return list.every((d) => d.attempts >= 1) ? list : undefined;
    }, 'every black-hole delivery attempted');
    for (const d of failing) expect(d).toMatchObject({ deliveredAt: null, responseStatus: 500 });
    const unreachable = await eventually(async () => {
      const list = await api.deliveries(refused.id);
      return list.length === 3 && list.every((d) => d.attempts >= 1) ? list : undefined;
    }, 'every refused delivery attempted');
    for (const d of unreachable) {
      expect(d).toMatchObject({ deliveredAt: null, responseStatus: null });
      expect(d.error).toEqual(expect.any(String));
    }
    expect(await api.endpoint(refused.id)).toMatchObject({ lastSuccessAt: null, lastFailureAt: expect.stringMatching(ISO_MS) });
    expect((await api.endpoint(refused.id)).failureCount).toBeGreaterThanOrEqual(3);
  });
});

describe('auto-disable and timeouts', () => {
  let t: TestApp;
  let api: ReturnType<typeof client>;
  let general: string;

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        ...RECEIVER_ENV,
        WEBHOOK_RETRY_SCHEDULE: '1,1,1,1',
        WEBHOOK_TIMEOUT_MS: '500',
        WEBHOOK_DISABLE_MIN_FAILURES: '3',
        WEBHOOK_DISABLE_AFTER_SECONDS: '0',
      },
    });
    const key = await t.key();
    general = await defaultSectionId(t, key);
    api = client(t, key, () => general);
  });

  afterEach(async () => {
    await api.deleteAllEndpoints();
  });

  afterAll(async () => {
    await t?.close();
  });

  it('gives up on a receiver that does not answer within WEBHOOK_TIMEOUT_MS', async () => {
    const { endpoint, path } = await api.endpointAt('never-answers', ['article.created']);
    receiver.respond(path, { hang: true });
    await api.createArticle();
    const delivery = await api.onlyDelivery(endpoint.id, (d) => d.attempts >= 1, 'first attempt timed out');
    expect(delivery).toMatchObject({ responseStatus: null, deliveredAt: null });
    expect(delivery.error).toMatch(/time/i);
    const first = delivery.attemptHistory![0]!;
    expect(first).toMatchObject({ attempt: 1, responseStatus: null, responseExcerpt: null });
    expect(first.error).toMatch(/time/i);
    expect(receiver.requestsTo(path).length).toBeGreaterThanOrEqual(1);
  });

  it('auto-disables after WEBHOOK_DISABLE_MIN_FAILURES failures and fails its pending deliveries', async () => {
    const { endpoint, path } = await api.endpointAt('sustained-failure');
    receiver.respond(path, { status: 500, body: 'down' });
    // Two events (created, published): two deliveries failing together.
    const article = await api.createArticle({ publish: true });
    const disabled = await api.endpointWhen(endpoint.id, (e) => !e.enabled, 'auto-disabled');
    expect(disabled).toMatchObject({ enabled: false, disabledAt: expect.stringMatching(ISO_MS), lastSuccessAt: null, disabledReason: 'sustained_failures' });
    expect(disabled.failureCount).toBeGreaterThanOrEqual(3);
    // How many attempts failed, for how long nothing succeeded (WEBHOOK_DISABLE_AFTER_SECONDS is 0 here) and the
    // last error; of the URL nothing (the receiver's path is not quoted).
    expect(disabled.disabledMessage).toMatch(/^Disabled after \d+ failed attempts in a row and no success for (less than a second|\d+ seconds?); last error: HTTP 500\.$/);
    // The count when it tipped over: at least the minimum; an attempt of the other delivery may have failed since.
    const counted = Number(/after (\d+)/.exec(disabled.disabledMessage!)![1]);
    expect(counted).toBeGreaterThanOrEqual(3);
    expect(counted).toBeLessThanOrEqual(disabled.failureCount);
    expect(disabled.disabledMessage).not.toContain(path);
    const deliveries = await eventually(async () => {
      const list = await api.deliveries(endpoint.id);
      return list.length === 2 && list.every((d) => d.status === 'failed') ? list : undefined;
    }, 'both deliveries failed');
    for (const d of deliveries) expect(d).toMatchObject({ nextRetryAt: null, deliveredAt: null });
    // The delivery whose attempt tipped it over failed with that attempt; the other, still pending, was failed with it.
    const byError = deliveries.map((d) => d.error).sort();
    expect(byError).toEqual(expect.arrayContaining(['endpoint disabled']));
    const tipping = deliveries.find((d) => d.error !== 'endpoint disabled')!;
    expect(tipping).toMatchObject({ responseStatus: 500, error: expect.stringContaining('500') });
    const totalAttempts = deliveries.reduce((n, d) => n + d.attempts, 0);
    expect(totalAttempts).toBeGreaterThanOrEqual(3);
    expect(totalAttempts).toBeLessThan(10);

    // No more events for it while disabled.
    const barrier = await api.endpointAt('after-disable', ['article.unpublished']);
    expect(outcome(await api.post(`/v1/articles/${article.id}/unpublish`))).toMatchObject({ status: 200 });
    await receiver.waitFor(eventFor(barrier.path, 'article.unpublished', article.id));
    expect(await api.deliveries(endpoint.id)).toHaveLength(2);

    // Re-enabled, it starts over; a delivery failed by the disable can be retried by hand.
    const enabled = await api.post(`/v1/webhooks/${endpoint.id}/enable`);
    expect(outcome(enabled)).toMatchObject({ status: 200, body: { enabled: true, failureCount: 0, disabledAt: null, disabledReason: null, disabledMessage: null } });
    receiver.respond(path, { status: 200 });
    const victim = deliveries.find((d) => d.error === 'endpoint disabled')!;
    expect(outcome(await api.post(`/v1/webhooks/${endpoint.id}/deliveries/${victim.id}/retry`))).toMatchObject({ status: 202, body: { status: 'pending' } });
    const retried = await eventually(async () => {
      const d = await api.delivery(endpoint.id, victim.id);
      return d.status === 'success' ? d : undefined;
    }, 'manual retry succeeded');
    expect(retried).toMatchObject({ error: null, responseStatus: 200, deliveredAt: expect.stringMatching(ISO_MS) });
    expect(await api.endpoint(endpoint.id)).toMatchObject({ enabled: true, failureCount: 0, lastSuccessAt: expect.stringMatching(ISO_MS) });
  });
});

describe('manual retry after a disable (long retry schedule)', () => {
  let t: TestApp;
  let api: ReturnType<typeof client>;
  let general: string;

  beforeAll(async () => {
    // The scheduled retry comes 30 s after a failure: far later than a manual retry should take.
    t = await startTestApp({ env: { ...RECEIVER_ENV, WEBHOOK_RETRY_SCHEDULE: '30,30' } });
    const key = await t.key();
    general = await defaultSectionId(t, key);
    api = client(t, key, () => general);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('sends a delivery failed by the disable at once when retried by hand after re-enabling', async () => {
    const { endpoint, path } = await api.endpointAt('retry-after-enable');
    receiver.respond(path, (request) => (request.nth === 1 ? { status: 500 } : { status: 200 }));
    await api.createArticle();
    const waiting = await api.onlyDelivery(endpoint.id, (d) => d.attempts >= 1, 'first attempt failed');
    expect(waiting).toMatchObject({ status: 'pending', nextRetryAt: expect.stringMatching(ISO_MS) });

    expect(outcome(await api.post(`/v1/webhooks/${endpoint.id}/disable`))).toMatchObject({ status: 200 });
    expect(await api.delivery(endpoint.id, waiting.id)).toMatchObject({ status: 'failed', error: 'endpoint disabled' });
    expect(outcome(await api.post(`/v1/webhooks/${endpoint.id}/enable`))).toMatchObject({ status: 200 });
    const retry = await api.post(`/v1/webhooks/${endpoint.id}/deliveries/${waiting.id}/retry`);
    expect(outcome(retry)).toMatchObject({ status: 202, body: { id: waiting.id, status: 'pending', nextRetryAt: null } });

    // Sent now (well within the 30 s the cancelled retry was scheduled for), not at that old retry time.
    const request = await receiver.waitFor((r) => r.path === path && r.nth === 2, 10_000);
    expect(request.header('webhook-id')).toBe(waiting.id);
    const delivered = await eventually(async () => {
      const d = await api.delivery(endpoint.id, waiting.id);
      return d.status === 'success' ? d : undefined;
    }, 'success', 5_000);
    expect(delivered).toMatchObject({ attempts: 2, responseStatus: 200, error: null, deliveredAt: expect.stringMatching(ISO_MS) });
  });
});
