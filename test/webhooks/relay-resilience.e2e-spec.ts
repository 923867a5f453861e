import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { createLogger, OutboxNotifications } from '#core';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { eventually } from '../support/eventually.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * The outbox relay, its sweep and the LISTEN connection never hang for good: a relay query stuck on a lock is
 * cancelled by the statement timeout and logged, a connection killed under a run is logged, and the next run starts
 * normally; a LISTEN connection that is killed reconnects and hears the next event.
 */

jest.setTimeout(120_000);

const WEBHOOK_ENV = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
  RATE_LIMIT_REQUESTS_PER_MINUTE: '100000',
  RATE_LIMIT_CREATE_ARTICLES_PER_HOUR: '100000',
};

/** A logger whose warnings the test can read. */
function capturedLogger(): { logger: ReturnType<typeof createLogger>; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: createLogger('warn', stream), lines };
}

async function admin(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

async function subscribe(app: TestApp, key: string, receiver: WebhookReceiver, path: string): Promise<{ id: string; secret: string }> {
  const res = await app.http.post('/v1/webhooks').set(bearer(key)).send({ url: receiver.url(path), events: ['article.created'] });
  expect(res.status).toBe(201);
  return { id: res.body.id as string, secret: res.body.secret as string };
}

/** Every delivery of the endpoint recorded as a success (its bookkeeping also writes the endpoint row). */
async function allDelivered(app: TestApp, key: string, endpointId: string): Promise<void> {
  await eventually(async () => {
    const res = await app.http.get(`/v1/webhooks/${endpointId}/deliveries`).set(bearer(key));
    const statuses = (res.body.results as Array<{ status: string }>).map((delivery) => delivery.status);
    return statuses.length > 0 && statuses.every((status) => status === 'success');
  }, 'every delivery recorded as a success');
}

async function createArticle(app: TestApp, key: string, title: string): Promise<string> {
  const sections = await app.http.get('/v1/sections').set(bearer(key));
  const res = await app.http
    .post('/v1/articles')
    .set(bearer(key))
    .send({ title, sectionId: sections.body.results[0].id, markdown: 'Body.' });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

function deliveredArticle(receiver: WebhookReceiver, path: string, articleId: string, secret: string, timeoutMs = 20_000) {
  return receiver.waitFor((r) => r.path === path && r.json<{ data: { id: string } }>().data.id === articleId, timeoutMs).then((delivery) => {
    expect(new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>)).toMatchObject({ type: 'article.created' });
    return delivery;
  });
}

describe('a relay query that hangs on a lock, and a connection killed under it', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  let key: string;
  let endpoint: { id: string; secret: string };
  let lockHolder: pg.Client;
  const log = capturedLogger();

  beforeAll(async () => {
    receiver = await startReceiver();
    app = await startTestApp({
      logger: log.logger,
      env: { ...WEBHOOK_ENV, DATABASE_STATEMENT_TIMEOUT_MS: '3000', WEBHOOK_SWEEP_INTERVAL_MS: '500' },
    });
    key = await app.key();
    endpoint = await subscribe(app, key, receiver, '/locked');
    lockHolder = await admin(app.databaseUrl!);
  });
  afterAll(async () => {
    await lockHolder?.end().catch(() => undefined);
    await app?.close();
    await receiver?.close();
  });

  it('times out, is logged with its cause, and the event goes out once the lock is released', async () => {
    await lockHolder.query('BEGIN');
    await lockHolder.query('LOCK TABLE webhook_endpoints IN ACCESS EXCLUSIVE MODE');
    const before = log.lines.length;
    const articleId = await createArticle(app, key, 'Written while the relay is stuck');
    // The relay's fan-out query waits for the lock until the statement timeout cancels it; runs keep coming.
    await eventually(
      async () => log.lines.slice(before).some((line) => /(Outbox relay|Webhook sweep): canceling statement due to statement timeout/.test(line)),
      'a relay run cancelled by the statement timeout, logged',
    );
    // Requests that do not need the locked table are unaffected.
    expect((await app.http.get('/v1/sections').set(bearer(key))).status).toBe(200);
    expect(receiver.requestsTo('/locked')).toHaveLength(0);
    await lockHolder.query('ROLLBACK');
    await deliveredArticle(receiver, '/locked', articleId, endpoint.secret);
    await allDelivered(app, key, endpoint.id);
  });

  it('a run whose connection is killed is logged, and the next run delivers', async () => {
    await lockHolder.query('BEGIN');
    await lockHolder.query('LOCK TABLE webhook_endpoints IN ACCESS EXCLUSIVE MODE');
    const before = log.lines.length;
    const articleId = await createArticle(app, key, 'Written while the relay connection dies');
    // Only the relay and its sweep can be waiting for the lock now (the first article's delivery is recorded).
    const waiting = await eventually(async () => {
      // (The wait happens while the statement is parsed, before pg_stat_activity shows its text.)
      const { rows } = await lockHolder.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock' AND application_name = 'help-center-api'`,
      );
      return rows.length > 0 ? rows.map((row) => row.pid) : undefined;
    }, 'a relay query waiting for the lock');
    for (const pid of waiting) await lockHolder.query('SELECT pg_terminate_backend($1)', [pid]);
    await eventually(
      async () => log.lines.slice(before).some((line) => /(Outbox relay|Webhook sweep): terminating connection due to administrator command/.test(line)),
      'the killed run, logged with its cause',
    );
    await lockHolder.query('ROLLBACK');
    await deliveredArticle(receiver, '/locked', articleId, endpoint.secret);
    // And the app goes on serving from its pool.
    expect((await app.http.get('/v1/articles').set(bearer(key))).status).toBe(200);
  });
});

describe('a LISTEN connection that is killed reconnects', () => {
  let relaying: TestApp;
  let writing: TestApp;
  let receiver: WebhookReceiver;
  let key: string;
  let secret: string;
  let client: pg.Client;
  const log = capturedLogger();

  beforeAll(async () => {
    receiver = await startReceiver();
    // An API process that runs no jobs (they go to Redis) and so relays nothing itself.
    writing = await startTestApp({ runsJobs: false, redis: true, env: WEBHOOK_ENV });
    // The sweep is far away: only a notification can wake this relay within the test's deadlines. (Started last:
    // Nest's static logger is the last app's, and this test reads the relaying app's warnings.)
    relaying = await startTestApp({ databaseUrl: writing.databaseUrl!, logger: log.logger, env: { ...WEBHOOK_ENV, WEBHOOK_SWEEP_INTERVAL_MS: '600000' } });
    key = await relaying.key();
    ({ secret } = await subscribe(relaying, key, receiver, '/listen'));
    client = await admin(relaying.databaseUrl!);
    const notifications = relaying.app.get(OutboxNotifications);
    await eventually(async () => notifications.listening, 'the relay LISTENing');
  });
  afterAll(async () => {
    await client?.end().catch(() => undefined);
    await relaying?.close();
    await writing?.close();
    await receiver?.close();
  });

  it('hears events recorded by another process, before and after its connection is terminated', async () => {
    const first = await createArticle(writing, key, 'Announced by NOTIFY');
    await deliveredArticle(receiver, '/listen', first, secret, 10_000);

    const { rows } = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'help-center-api:listen'",
    );
    expect(rows).toHaveLength(1);
    await client.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    const notifications = relaying.app.get(OutboxNotifications);
    await eventually(async () => log.lines.some((line) => line.includes('LISTEN connection lost')), 'the lost LISTEN connection, logged');
    await eventually(async () => notifications.listening, 'the LISTEN connection back');
    const { rows: after } = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'help-center-api:listen'",
    );
    expect(after).toHaveLength(1);
    expect(after[0]!.pid).not.toBe(rows[0]!.pid);

    const second = await createArticle(writing, key, 'Announced after the reconnect');
    await deliveredArticle(receiver, '/listen', second, secret, 10_000);
  });
});
