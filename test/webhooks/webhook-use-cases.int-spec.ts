import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import {
  EventOutbox,
  InsufficientScopeError,
  InvalidStateError,
  JobName,
  type JobOptions,
  type JobPayloads,
  JobQueue,
  NotFoundError,
  Principal,
  SecretCipher,
  UnitOfWork,
} from '#core';
import {
  CreateWebhookUseCase,
  DeliverWebhookUseCase,
  DisableWebhookUseCase,
  EnableWebhookUseCase,
  GetWebhookUseCase,
  ListWebhooksUseCase,
  RelayOutboxEventsUseCase,
  RetryWebhookDeliveryUseCase,
  RotateWebhookSecretUseCase,
  SendTestWebhookUseCase,
  WebhooksModule,
  WebhookSecretUnreadableError,
} from '#webhooks';
import { type SendResult, WebhookSender } from '../../libs/webhooks/src/application/webhook-sender.port.js';
import { SECRET_UNREADABLE } from '../../libs/webhooks/src/domain/webhook-delivery.js';
import { WebhookDisabledReason1795364000000 } from '../../migrations/1795364000000-webhook-disabled-reason.js';
import { createUseCaseModule, type UseCaseModule } from '../support/use-case-module.js';

// The webhooks' use cases below HTTP: WebhooksModule with its SQL adapters against a PostgreSQL database of this
// file's own. The job queue and the sender are recorders (nothing leaves the process); everything else is real:
// the unit of work, the row locks, the encryption of secrets at rest.

jest.setTimeout(60_000);

/** A public address (no DNS lookup when the URL is checked); nothing is ever sent to it. */
const URL_BASE = 'https://93.184.215.14/hooks';
const HOUR = 3600 * 1000;

/** A key that may manage webhooks and read published content, nothing more. */
const reader = new Principal('key_reader', ['webhooks:manage', 'content:read']);
const manager = new Principal('key_manager', ['webhooks:manage', 'content:read', 'content:write', 'analytics:read']);

interface QueuedJob {
  readonly name: JobName;
  readonly jobId: string | undefined;
  readonly payload: unknown;
}

/** The job queue, recording what it is asked to do. */
class RecordingJobQueue extends JobQueue {
  readonly added: QueuedJob[] = [];
  readonly removed: Array<{ name: JobName; jobId: string }> = [];

  async add<N extends JobName>(name: N, payload: JobPayloads[N], options?: JobOptions): Promise<void> {
    this.added.push({ name, jobId: options?.jobId, payload });
  }

  async addBulk<N extends JobName>(name: N, jobs: ReadonlyArray<{ payload: JobPayloads[N]; options?: JobOptions }>): Promise<void> {
    for (const job of jobs) this.added.push({ name, jobId: job.options?.jobId, payload: job.payload });
  }

  async remove(name: JobName, jobId: string): Promise<void> {
    this.removed.push({ name, jobId });
  }

  async repeat(): Promise<void> {}

  async ping(): Promise<void> {}

  /** Jobs queued for one delivery. */
  deliveriesOf(deliveryId: string): QueuedJob[] {
    return this.added.filter((job) => job.name === JobName.DeliverWebhook && job.jobId === deliveryId);
  }
}

const OK: SendResult = { status: 200, retryAfter: undefined, excerpt: 'ok', error: null, durationMs: 1 };

/** The sender, recording every POST and answering `answer` (200 unless a test says otherwise). */
class RecordingSender extends WebhookSender {
  readonly posts: Array<{ url: string; headers: Record<string, string>; body: string }> = [];
  answer: SendResult = OK;

  async post(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    this.posts.push({ url, headers, body });
    return this.answer;
  }
}

describe('webhooks use cases (real PostgreSQL)', () => {
  let t: UseCaseModule;
  let n = 0;
  const queue = new RecordingJobQueue();
  const sender = new RecordingSender();

  const use = <T>(type: abstract new (...args: never[]) => T): T => t.get(type);
  const url = (label: string) => `${URL_BASE}/${label}-${++n}`;

  const rows = <T>(sql: string, params: unknown[] = []): Promise<T[]> => t.rows<T>(sql, params);

  /** The error a promise rejects with (fails when it resolves). */
  async function failure(promise: Promise<unknown>): Promise<unknown> {
    return promise.then(
      () => {
        throw new Error('expected a rejection');
      },
      (error: unknown) => error,
    );
  }

  /** The endpoint's stored secrets, opened. */
  async function storedSecrets(endpointId: string): Promise<{ secret: string; previous: string | null; sealed: string }> {
    const [row] = await rows<{ secret: string; previous: string | null }>('SELECT secret, previous_secret AS previous FROM webhook_endpoints WHERE id = $1', [endpointId]);
    const cipher = use(SecretCipher);
    return { sealed: row!.secret, secret: cipher.open(row!.secret, endpointId), previous: row!.previous === null ? null : cipher.open(row!.previous, endpointId) };
  }

  /** An endpoint with one failed webhook.test delivery. */
  async function failedDelivery(label: string): Promise<{ endpointId: string; deliveryId: string }> {
    const endpoint = await use(CreateWebhookUseCase).execute({ url: url(label), events: ['*'] }, manager);
    const { deliveryId } = await use(SendTestWebhookUseCase).execute(endpoint.id, manager);
    await t.db.query(
      `UPDATE webhook_deliveries SET status = 'failed', attempts = 8, response_status = 500, error = 'HTTP 500', next_retry_at = NULL, due_at = NULL WHERE id = $1`,
      [deliveryId],
    );
    return { endpointId: endpoint.id, deliveryId };
  }

  beforeAll(async () => {
    t = await createUseCaseModule([WebhooksModule], {
      overrides: [
        { provide: JobQueue, useValue: queue },
        { provide: WebhookSender, useValue: sender },
      ],
    });
  });
  afterAll(() => t?.close());
  beforeEach(() => {
    queue.added.length = 0;
    queue.removed.length = 0;
    sender.posts.length = 0;
    sender.answer = OK;
  });

  describe('create', () => {
    it('an endpoint receives only what the creating key may read: a named event it may not is refused, "*" is what it may read', async () => {
      const refusedUrl = url('refused');
      const refused = await failure(use(CreateWebhookUseCase).execute({ url: refusedUrl, events: ['section.created', 'article.created'] }, reader));
      expect(refused).toBeInstanceOf(InsufficientScopeError);
      expect(refused).toMatchObject({ code: 'insufficient_scope', scope: 'content:write' });
      expect(await rows('SELECT 1 FROM webhook_endpoints WHERE url = $1', [refusedUrl])).toEqual([]);

      const created = await use(CreateWebhookUseCase).execute({ url: url('narrow'), events: ['*'], description: 'Content read only' }, reader);
      expect(created).toMatchObject({ events: ['*'], enabled: true, description: 'Content read only', failureCount: 0, secret: expect.stringMatching(/^whsec_/) });
      // The secret is shown here, and stored only sealed; the key's scopes are kept with the endpoint.
      const stored = await storedSecrets(created.id);
      expect(stored.sealed).toMatch(/^enc:v1:/);
      expect(stored.secret).toBe(created.secret);
      const [row] = await rows<{ scopes: string[] }>('SELECT created_by_scopes AS scopes FROM webhook_endpoints WHERE id = $1', [created.id]);
      expect(row!.scopes).toEqual(['webhooks:manage', 'content:read']);
      // What a read shows is what the creation returned, without the secret.
      const { secret: _secret, ...shown } = created;
      expect(await use(GetWebhookUseCase).execute(created.id)).toEqual({ ...shown, deliveries: [] });

      // Fan-out: of a draft's event and a section's, only the section's reaches this endpoint.
      await use(UnitOfWork).run(async () => {
        await use(EventOutbox).record('article.created', { id: 'art_1' });
        await use(EventOutbox).record('section.created', { id: 'sec_1' });
      });
      expect(await use(RelayOutboxEventsUseCase).execute()).toBeGreaterThanOrEqual(2);
      const deliveries = await rows<{ id: string; eventType: string }>('SELECT id, event_type AS "eventType" FROM webhook_deliveries WHERE endpoint_id = $1', [created.id]);
      expect(deliveries.map((d) => d.eventType)).toEqual(['section.created']);
      expect(queue.deliveriesOf(deliveries[0]!.id)).toHaveLength(1);
    });
  });

  describe('rotate the secret', () => {
    it('returns the new secret once; the old one stays beside it for 24 hours; rotations at once take turns and lose no secret', async () => {
      const created = await use(CreateWebhookUseCase).execute({ url: url('rotate'), events: ['section.created'] }, manager);
      const before = Date.now();
      const rotated = await use(RotateWebhookSecretUseCase).execute(created.id, manager);
      expect(rotated.secret).toMatch(/^whsec_/);
      expect(rotated.secret).not.toBe(created.secret);
      expect(Date.parse(rotated.previousSecretExpiresAt) - before).toBeGreaterThanOrEqual(24 * HOUR - 1000);
      expect(Date.parse(rotated.previousSecretExpiresAt) - Date.now()).toBeLessThanOrEqual(24 * HOUR);
      expect(await storedSecrets(created.id)).toMatchObject({ secret: rotated.secret, previous: created.secret });

      // Two rotations at once: the endpoint's row lock makes one follow the other, so the later one keeps the
      // earlier one's new secret as its previous one (neither overwrites the other's).
      const both = await Promise.all([use(RotateWebhookSecretUseCase).execute(created.id, manager), use(RotateWebhookSecretUseCase).execute(created.id, manager)]);
      const stored = await storedSecrets(created.id);
      const last = both.find((r) => r.secret === stored.secret)!;
      const first = both.find((r) => r !== last)!;
      expect(last).toBeDefined();
      expect(stored.previous).toBe(first.secret);
    });
  });

  describe('retry a delivery', () => {
    it('puts a failed delivery back to pending and queues it after the commit; refuses a pending one, an unknown one and a disabled endpoint', async () => {
      const { endpointId, deliveryId } = await failedDelivery('retry');
      queue.added.length = 0;

      const retried = await use(RetryWebhookDeliveryUseCase).execute(endpointId, deliveryId, manager);
      expect(retried).toEqual({
        id: deliveryId,
        eventType: 'webhook.test',
        status: 'pending',
        responseStatus: 500,
        attempts: 8,
        error: 'HTTP 500',
        createdAt: expect.any(String),
        deliveredAt: null,
        nextRetryAt: null,
      });
      const [row] = await rows<{ status: string; dueAt: Date | null }>('SELECT status, due_at AS "dueAt" FROM webhook_deliveries WHERE id = $1', [deliveryId]);
      expect(row).toMatchObject({ status: 'pending', dueAt: expect.any(Date) });
      // The job of an earlier attempt is dropped, then the delivery is queued under its own ID.
      expect(queue.removed).toEqual([{ name: JobName.DeliverWebhook, jobId: deliveryId }]);
      expect(queue.deliveriesOf(deliveryId)).toHaveLength(1);

      const again = await failure(use(RetryWebhookDeliveryUseCase).execute(endpointId, deliveryId, manager));
      expect(again).toBeInstanceOf(InvalidStateError);
      expect(again).toMatchObject({ message: expect.stringContaining('pending already') });

      const other = await use(CreateWebhookUseCase).execute({ url: url('other'), events: ['*'] }, manager);
      expect(await failure(use(RetryWebhookDeliveryUseCase).execute(other.id, deliveryId, manager))).toBeInstanceOf(NotFoundError);
      expect(await failure(use(RetryWebhookDeliveryUseCase).execute(endpointId, 'whdl_01JD3Q7W6S1X0Y2Z3A4B5C6D7E', manager))).toBeInstanceOf(NotFoundError);

      // Disabling fails what was pending; a retry must wait for the endpoint to be enabled.
      await use(DisableWebhookUseCase).execute(endpointId, manager);
      expect(await rows('SELECT status, error FROM webhook_deliveries WHERE id = $1', [deliveryId])).toEqual([{ status: 'failed', error: 'endpoint disabled' }]);
      const disabled = await failure(use(RetryWebhookDeliveryUseCase).execute(endpointId, deliveryId, manager));
      expect(disabled).toBeInstanceOf(InvalidStateError);
      expect(disabled).toMatchObject({ message: expect.stringContaining('disabled') });
    });

    it('of concurrent retries of one delivery, one wins and queues it once; the others are 409', async () => {
      const { endpointId, deliveryId } = await failedDelivery('concurrent');
      queue.added.length = 0;

      const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => use(RetryWebhookDeliveryUseCase).execute(endpointId, deliveryId, manager)));
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(5);
      for (const { reason } of lost) expect(reason).toBeInstanceOf(InvalidStateError);
      expect(queue.deliveriesOf(deliveryId)).toHaveLength(1);
      expect(await rows('SELECT status FROM webhook_deliveries WHERE id = $1', [deliveryId])).toEqual([{ status: 'pending' }]);
    });
  });

  describe('an endpoint whose stored secret does not open', () => {
    it('is invalid_state where something would be signed for it, is still listed and read, and its deliveries fail with the reason', async () => {
      const tampered = await use(CreateWebhookUseCase).execute({ url: url('tampered'), events: ['*'] }, manager);
      const healthy = await use(CreateWebhookUseCase).execute({ url: url('healthy'), events: ['*'] }, manager);
      const { deliveryId: stuck } = await use(SendTestWebhookUseCase).execute(tampered.id, manager);
      const { deliveryId: fine } = await use(SendTestWebhookUseCase).execute(healthy.id, manager);
      // A sealed value copied from another endpoint's row does not open: it is bound to its own row.
      await t.db.query('UPDATE webhook_endpoints SET secret = (SELECT secret FROM webhook_endpoints WHERE id = $2) WHERE id = $1', [tampered.id, healthy.id]);

      const test = await failure(use(SendTestWebhookUseCase).execute(tampered.id, manager));
      expect(test).toBeInstanceOf(WebhookSecretUnreadableError);
      expect(test).toBeInstanceOf(InvalidStateError);
      expect(test).toMatchObject({ code: 'invalid_state', message: expect.stringContaining(tampered.id) });
      expect((test as Error).message).toMatch(/ENCRYPTION_KEY/);
      expect(await rows('SELECT id FROM webhook_deliveries WHERE endpoint_id = $1', [tampered.id])).toEqual([{ id: stuck }]);
      expect(await failure(use(RotateWebhookSecretUseCase).execute(tampered.id, manager))).toBeInstanceOf(WebhookSecretUnreadableError);

      // Reads never open secrets.
      expect(await use(GetWebhookUseCase).execute(tampered.id)).toMatchObject({ id: tampered.id, deliveries: [{ id: stuck, status: 'pending' }] });
      const listed = await use(ListWebhooksUseCase).execute({ pageSize: 100 });
      expect(listed.results.map((e) => e.id)).toEqual(expect.arrayContaining([tampered.id, healthy.id]));

      // Delivered together (one batched read): the tampered endpoint's delivery fails with the reason and sends
      // nothing; the other one is sent as usual.
      await Promise.all([use(DeliverWebhookUseCase).execute(stuck), use(DeliverWebhookUseCase).execute(fine)]);
      expect(sender.posts.map((p) => p.url)).toEqual([healthy.url]);
      const states = await rows<{ id: string; status: string; error: string | null; attempts: number }>(
        'SELECT id, status, error, attempts FROM webhook_deliveries WHERE id = ANY($1) ORDER BY id',
        [[stuck, fine]],
      );
      expect(states).toEqual(
        expect.arrayContaining([
          { id: stuck, status: 'failed', error: SECRET_UNREADABLE, attempts: 1 },
          { id: fine, status: 'success', error: null, attempts: 1 },
        ]),
      );
    });
  });
  describe('why an endpoint is disabled', () => {
    const admin = Principal.admin('adm_01JD3Q7W6S1X0Y2Z3A4B5C6D7E', 'ops@example.com', '203.0.113.9');

    /** The endpoint's stored reason and message. */
    const stored = async (id: string) =>
      (await rows<{ reason: string | null; message: string | null }>('SELECT disabled_reason AS reason, disabled_message AS message FROM webhook_endpoints WHERE id = $1', [id]))[0];

    /** An endpoint with one pending webhook.test delivery, `failures` failed attempts and no success for `days` days. */
    async function failingFor(label: string, failures: number, days: number): Promise<{ endpointId: string; deliveryId: string; url: string }> {
      const endpoint = await use(CreateWebhookUseCase).execute({ url: `${url(label)}?token=SECRET-IN-QUERY`, events: ['*'] }, manager);
      const { deliveryId } = await use(SendTestWebhookUseCase).execute(endpoint.id, manager);
      await t.db.query(`UPDATE webhook_endpoints SET failure_count = $2, enabled_at = now() - make_interval(days => $3) WHERE id = $1`, [endpoint.id, failures, days]);
      return { endpointId: endpoint.id, deliveryId, url: endpoint.url };
    }

    it('by hand: manual, saying through what (never who by email); disabling again keeps the first reason; enabling clears it', async () => {
      const byKey = await use(CreateWebhookUseCase).execute({ url: url('by-key'), events: ['*'] }, manager);
      expect(byKey).toMatchObject({ enabled: true, disabledReason: null, disabledMessage: null });
      const disabled = await use(DisableWebhookUseCase).execute(byKey.id, manager);
      expect(disabled).toMatchObject({ enabled: false, disabledReason: 'manual', disabledMessage: 'Disabled by hand through the API with key key_manager.' });
      expect(await stored(byKey.id)).toEqual({ reason: 'manual', message: 'Disabled by hand through the API with key key_manager.' });
      // Reads and lists show what the disable returned.
      expect(await use(GetWebhookUseCase).execute(byKey.id)).toMatchObject({ disabledReason: 'manual', disabledMessage: disabled.disabledMessage });
      const listed = (await use(ListWebhooksUseCase).execute({ pageSize: 100 })).results.find((e) => e.id === byKey.id);
      expect(listed).toMatchObject({ disabledReason: 'manual', disabledMessage: disabled.disabledMessage });

      // An admin of the settings pages: the same use case, the sentence says an admin (the audit log names them).
      const byAdmin = await use(CreateWebhookUseCase).execute({ url: url('by-admin'), events: ['*'] }, manager);
      const adminDisabled = await use(DisableWebhookUseCase).execute(byAdmin.id, admin);
      expect(adminDisabled).toMatchObject({ disabledReason: 'manual', disabledMessage: 'Disabled by hand by an admin in the developer settings.' });
      // Already disabled: nothing changes, not even by someone else.
      expect(await use(DisableWebhookUseCase).execute(byAdmin.id, manager)).toMatchObject({ disabledAt: adminDisabled.disabledAt, disabledMessage: adminDisabled.disabledMessage });

      const enabled = await use(EnableWebhookUseCase).execute(byKey.id, admin);
      expect(enabled).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null, disabledMessage: null });
      expect(await stored(byKey.id)).toEqual({ reason: null, message: null });
    });

    it('after sustained failures: the count, how long without success and the last error, never the URL path or query; the same sentence in the audit log', async () => {
      const { endpointId, deliveryId } = await failingFor('sustained', 9, 6);
      sender.answer = { status: null, retryAfter: undefined, excerpt: null, error: 'could not reach 93.184.215.14 (ECONNREFUSED)', durationMs: 3 };
      await use(DeliverWebhookUseCase).execute(deliveryId);
      const message = 'Disabled after 10 failed attempts in a row and no success for 6 days; last error: could not reach 93.184.215.14 (ECONNREFUSED).';
      expect(await use(GetWebhookUseCase).execute(endpointId)).toMatchObject({ enabled: false, failureCount: 10, disabledReason: 'sustained_failures', disabledMessage: message });
      const [entry] = await rows<{ details: Record<string, unknown> }>("SELECT details FROM audit_log WHERE target_id = $1 AND action = 'webhook.auto_disabled'", [endpointId]);
      expect(entry!.details).toMatchObject({ reason: 'sustained_failures', message, failureCount: 10 });

      // An error quoting the whole URL is cut to its origin.
      const quoting = await failingFor('quoting', 12, 30);
      sender.answer = { status: null, retryAfter: undefined, excerpt: null, error: `refused by ${quoting.url}`, durationMs: 3 };
      await use(DeliverWebhookUseCase).execute(quoting.deliveryId);
      const view = await use(GetWebhookUseCase).execute(quoting.endpointId);
      expect(view).toMatchObject({ disabledReason: 'sustained_failures', disabledMessage: 'Disabled after 13 failed attempts in a row and no success for 30 days; last error: refused by https://93.184.215.14.' });
      expect(view.disabledMessage).not.toMatch(/hooks|token|SECRET/);
    });

    it('410 Gone: at once, whatever the count', async () => {
      const { endpointId, deliveryId } = await failingFor('gone', 0, 0);
      sender.answer = { status: 410, retryAfter: undefined, excerpt: 'gone', error: null, durationMs: 2 };
      await use(DeliverWebhookUseCase).execute(deliveryId);
      expect(await use(GetWebhookUseCase).execute(endpointId)).toMatchObject({
        enabled: false,
        failureCount: 1,
        disabledReason: 'gone',
        disabledMessage: 'Disabled at once: the receiver answered HTTP 410 Gone.',
      });
    });

    it('the table refuses an unknown reason, and a reason on an enabled endpoint', async () => {
      const endpoint = await use(CreateWebhookUseCase).execute({ url: url('checked'), events: ['*'] }, manager);
      await expect(t.db.query(`UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'bored' WHERE id = $1`, [endpoint.id])).rejects.toThrow(/disabled_reason_check/);
      await expect(t.db.query(`UPDATE webhook_endpoints SET disabled_reason = 'manual' WHERE id = $1`, [endpoint.id])).rejects.toThrow(/enabled_no_reason_check/);
      await expect(t.db.query(`UPDATE webhook_endpoints SET disabled_message = 'x' WHERE id = $1`, [endpoint.id])).rejects.toThrow(/enabled_no_reason_check/);
    });

    it('the migration gives endpoints disabled before it their reason from the audit log, where it has one', async () => {
      const manual = await use(CreateWebhookUseCase).execute({ url: url('was-manual'), events: ['*'] }, manager);
      await use(DisableWebhookUseCase).execute(manual.id, manager);
      const gone = await failingFor('was-gone', 0, 0);
      sender.answer = { status: 410, retryAfter: undefined, excerpt: null, error: null, durationMs: 2 };
      await use(DeliverWebhookUseCase).execute(gone.deliveryId);
      // Disabled, enabled, then disabled again with no entry (an older version's audit log): the earlier entry is not its reason.
      const unexplained = await use(CreateWebhookUseCase).execute({ url: url('unexplained'), events: ['*'] }, manager);
      await use(DisableWebhookUseCase).execute(unexplained.id, manager);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await use(EnableWebhookUseCase).execute(unexplained.id, manager);
      await t.db.query(`UPDATE webhook_endpoints SET enabled = false, disabled_at = now() WHERE id = $1`, [unexplained.id]);
      const running = await use(CreateWebhookUseCase).execute({ url: url('running'), events: ['*'] }, manager);
      // An old gone entry's own sentence, as an earlier version wrote it.
      await t.db.query(`UPDATE audit_log SET details = details || '{"message": "The endpoint answered 410 Gone."}' WHERE target_id = $1 AND action = 'webhook.auto_disabled'`, [gone.endpointId]);

      const migration = new WebhookDisabledReason1795364000000();
      const runner = { query: (sql: string, params?: unknown[]) => t.db.query(sql, params) } as unknown as Parameters<typeof migration.up>[0];
      await migration.down(runner);
      await migration.up(runner);

      expect(await stored(manual.id)).toEqual({ reason: 'manual', message: 'Disabled by hand.' });
      expect(await stored(gone.endpointId)).toEqual({ reason: 'gone', message: 'The endpoint answered 410 Gone.' });
      expect(await stored(unexplained.id)).toEqual({ reason: null, message: null });
      expect(await stored(running.id)).toEqual({ reason: null, message: null });
      expect(await use(GetWebhookUseCase).execute(unexplained.id)).toMatchObject({ enabled: false, disabledReason: null, disabledMessage: null });
    });
  });
});
