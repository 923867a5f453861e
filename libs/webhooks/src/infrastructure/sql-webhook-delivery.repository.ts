import { Injectable } from '@nestjs/common';
import DataLoader from 'dataloader';
import { isEventType, type KeysetQuery, type KeysetSlice, mayReceiveEvent, newId, readKeysetRows, type Scope, SecretCipher, TransactionHost } from '#core';
import { type AttemptOutcome, type DeliveryFilter, type DeliveryWork, WebhookDeliveryRepository } from '../application/webhook-delivery.repository.js';
import type { DeliveryAttempt, WebhookDelivery } from '../domain/webhook-delivery.js';
import type { WebhookEndpointProps } from '../domain/webhook-endpoint.js';
import { ENDPOINT_COLUMNS, endpointOf } from './sql-webhook-endpoint.repository.js';

const BATCHING = { cache: false, maxBatchSize: 200, batchScheduleFn: (run: () => void) => setTimeout(run, 2) } as const;

const DELIVERY_COLUMNS = `d.id, d.endpoint_id AS "endpointId", d.event_id AS "eventId", d.event_type AS "eventType", d.status, d.attempts,
  d.response_status AS "responseStatus", d.error, d.created_at AS "createdAt", d.delivered_at AS "deliveredAt", d.next_retry_at AS "nextRetryAt"`;

/** Webhook deliveries and the outbox relay in PostgreSQL, plain SQL; the relay fans out with set operations. */
@Injectable()
export class SqlWebhookDeliveryRepository extends WebhookDeliveryRepository {
  /**
   * The hot path of a worker is batched: deliveries running at once read their work in one query and record their
   * successes in one transaction (a group commit), collected for a couple of milliseconds. Each job still waits
   * for its own read and write, so nothing is acknowledged before it is stored.
   */
  private readonly workLoader = new DataLoader<string, DeliveryWork | null>((ids) => this.tx.outside(() => this.loadWork(ids)), BATCHING);
  private readonly successWriter = new DataLoader<{ deliveryId: string; outcome: AttemptOutcome }, void>(
    (items) => this.tx.outside(() => this.writeSuccesses(items)),
    BATCHING,
  );

  constructor(
    private readonly tx: TransactionHost,
    private readonly cipher: SecretCipher,
  ) {
    super();
  }

  /** Per delivery: its work, null when it is gone, or the error of an endpoint whose secret does not open (that delivery alone fails). */
  private async loadWork(ids: readonly string[]): Promise<Array<DeliveryWork | Error | null>> {
    const rows = await this.tx.query<WebhookDelivery & { endpoint: WebhookEndpointProps; eventData: unknown; occurredAt: Date }>(
      `SELECT ${DELIVERY_COLUMNS}, ev.data AS "eventData", ev.occurred_at AS "occurredAt",
         (SELECT row_to_json(x) FROM (SELECT ${ENDPOINT_COLUMNS}) x) AS endpoint
       FROM webhook_deliveries d
       JOIN webhook_endpoints e ON e.id = d.endpoint_id
       JOIN outbox_events ev ON ev.id = d.event_id
       WHERE d.id = ANY($1::text[])`,
      [ids],
    );
    const byId = new Map<string, DeliveryWork | Error>();
    for (const { endpoint, eventData, occurredAt, ...delivery } of rows) {
      try {
        const event = { id: delivery.eventId, type: delivery.eventType, occurredAt, data: eventData };
        byId.set(delivery.id, { delivery, endpoint: endpointOf(reviveEndpoint(endpoint), this.cipher), event });
      } catch (error) {
        byId.set(delivery.id, error as Error);
      }
    }
    return ids.map((id) => byId.get(id) ?? null);
  }

  /**
   * Successes of many deliveries in one transaction: each delivery, its attempt record and its endpoint's counters.
   * Endpoint rows are locked in ID order first, so concurrent batches (other workers) cannot deadlock on them.
   */
  private async writeSuccesses(items: ReadonlyArray<{ deliveryId: string; outcome: AttemptOutcome }>): Promise<void[]> {
    const ids = items.map((i) => i.deliveryId);
    await this.tx.run(async () => {
      await this.tx.query(
        `SELECT 1 FROM webhook_endpoints WHERE id IN (SELECT endpoint_id FROM webhook_deliveries WHERE id = ANY($1::text[])) ORDER BY id FOR UPDATE`,
        [ids],
      );
      await this.tx.query(
        `WITH input AS (
           SELECT * FROM unnest($1::text[], $2::int[], $3::timestamptz[], $4::text[], $5::int[], $6::text[])
             AS i (delivery_id, response_status, attempted_at, attempt_id, duration_ms, excerpt)),
         delivered AS (
           UPDATE webhook_deliveries d SET status = 'success', attempts = d.attempts + 1, response_status = i.response_status, error = NULL,
             delivered_at = COALESCE(d.delivered_at, i.attempted_at), next_retry_at = NULL, due_at = NULL, updated_at = i.attempted_at
           FROM input i WHERE d.id = i.delivery_id AND d.status = 'pending'
           RETURNING d.id, d.attempts, d.endpoint_id, i.attempt_id, i.attempted_at, i.response_status, i.duration_ms, i.excerpt),
         recorded AS (
           INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, attempted_at, response_status, duration_ms, error, response_excerpt)
           SELECT attempt_id, id, attempts, attempted_at, response_status, duration_ms, NULL, excerpt FROM delivered)
         UPDATE webhook_endpoints e SET failure_count = 0, last_success_at = GREATEST(e.last_success_at, x.at)
         FROM (SELECT endpoint_id, max(attempted_at) AS at FROM delivered GROUP BY endpoint_id) x
         WHERE e.id = x.endpoint_id`,
        [
          ids,
          items.map((i) => i.outcome.responseStatus),
          items.map((i) => i.outcome.attemptedAt),
          items.map(() => newId('what')),
          items.map((i) => i.outcome.durationMs),
          items.map((i) => i.outcome.responseExcerpt),
        ],
      );
    });
    return items.map(() => undefined);
  }

  async relayBatch(limit: number, at: Date): Promise<{ events: number; deliveryIds: string[] }> {
    const events = await this.tx.query<{ id: string; type: string }>(
      'SELECT id, type FROM outbox_events WHERE relayed_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED',
      [limit],
    );
    if (events.length === 0) return { events: 0, deliveryIds: [] };
    const subscribed = await this.tx.query<{ eventId: string; type: string; endpointId: string; scopes: Scope[] | null }>(
      `SELECT ev.id AS "eventId", ev.type, e.id AS "endpointId", e.created_by_scopes AS scopes
       FROM unnest($1::text[], $2::text[]) AS ev (id, type)
       JOIN webhook_endpoints e ON e.enabled AND (e.events @> ARRAY[ev.type] OR e.events @> ARRAY['*'])
       ORDER BY ev.id, e.id`,
      [events.map((e) => e.id), events.map((e) => e.type)],
    );
    // An endpoint receives only what the key that chose its events may read.
    const pairs = subscribed.filter((pair) => !isEventType(pair.type) || mayReceiveEvent(pair.type, pair.scopes));
    const ids = pairs.map(() => newId('whdl'));
    if (pairs.length > 0) {
      await this.tx.query(
        `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, status, attempts, created_at, due_at, updated_at)
         SELECT d.id, d.endpoint_id, d.event_id, d.event_type, 'pending', 0, $5, $5, $5
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS d (id, endpoint_id, event_id, event_type)
         ON CONFLICT (event_id, endpoint_id) DO NOTHING`,
        [ids, pairs.map((p) => p.endpointId), pairs.map((p) => p.eventId), pairs.map((p) => p.type), at],
      );
    }
    await this.tx.query('UPDATE outbox_events SET relayed_at = $2 WHERE id = ANY($1::text[])', [events.map((e) => e.id), at]);
    return { events: events.length, deliveryIds: ids };
  }

  async createTestDelivery(endpointId: string, data: object, at: Date): Promise<string> {
    const eventId = newId('evt');
    const id = newId('whdl');
    await this.tx.query('INSERT INTO outbox_events (id, type, data, occurred_at, relayed_at) VALUES ($1, $2, $3, $4, $4)', [eventId, 'webhook.test', JSON.stringify(data), at]);
    await this.tx.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, status, attempts, created_at, due_at, updated_at)
       VALUES ($1, $2, $3, 'webhook.test', 'pending', 0, $4, $4, $4)`,
      [id, endpointId, eventId, at],
    );
    return id;
  }

  async work(deliveryId: string): Promise<DeliveryWork | null> {
    return this.workLoader.load(deliveryId);
  }

  async find(endpointId: string, deliveryId: string): Promise<WebhookDelivery | null> {
    const [row] = await this.tx.query<WebhookDelivery>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.id = $1 AND d.endpoint_id = $2`, [
      deliveryId,
      endpointId,
    ]);
    return row ?? null;
  }

  async list(query: KeysetQuery, filter: DeliveryFilter): Promise<KeysetSlice<WebhookDelivery>> {
    const conditions = ['d.endpoint_id = $1'];
    const params: unknown[] = [filter.endpointId];
    if (filter.status) {
      params.push(filter.status);
      conditions.push(`d.status = $${params.length}`);
    }
    return readKeysetRows<WebhookDelivery>(
      this.tx,
      { select: `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d`, alias: 'd', conditions, params, columns: { created_desc: 'd.created_at' } },
      query,
    );
  }

  async recent(endpointId: string, limit: number): Promise<WebhookDelivery[]> {
    return this.tx.query<WebhookDelivery>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.endpoint_id = $1 ORDER BY d.created_at DESC, d.id DESC LIMIT $2`,
      [endpointId, limit],
    );
  }

  async attempts(deliveryId: string): Promise<DeliveryAttempt[]> {
    return this.tx.query<DeliveryAttempt>(
      `SELECT id, delivery_id AS "deliveryId", attempt, attempted_at AS "attemptedAt", response_status AS "responseStatus",
         duration_ms AS "durationMs", error, response_excerpt AS "responseExcerpt"
       FROM webhook_delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`,
      [deliveryId],
    );
  }

  private async recordAttempt(deliveryId: string, outcome: AttemptOutcome): Promise<void> {
    await this.tx.query(
      `INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, attempted_at, response_status, duration_ms, error, response_excerpt)
       SELECT $1, d.id, d.attempts, $3, $4, $5, $6, $7 FROM webhook_deliveries d WHERE d.id = $2`,
      [newId('what'), deliveryId, outcome.attemptedAt, outcome.responseStatus, outcome.durationMs, outcome.error, outcome.responseExcerpt],
    );
  }

  async markSuccess(deliveryId: string, outcome: AttemptOutcome): Promise<void> {
    await this.successWriter.load({ deliveryId, outcome });
  }

  async markFailure(deliveryId: string, outcome: AttemptOutcome, nextRetryAt: Date | null): Promise<void> {
    const updated = await this.tx.query<{ id: string }>(
      `UPDATE webhook_deliveries SET status = $5, attempts = attempts + 1, response_status = $2, error = $3,
         next_retry_at = $4, due_at = $4, updated_at = $6
       WHERE id = $1 AND status = 'pending' RETURNING id`,
      [deliveryId, outcome.responseStatus, outcome.error, nextRetryAt, nextRetryAt ? 'pending' : 'failed', outcome.attemptedAt],
    );
    // A delivery no longer pending (its endpoint was disabled meanwhile) keeps its count and history as they are.
    if (updated.length > 0) await this.recordAttempt(deliveryId, outcome);
  }

  async failPending(endpointId: string, error: string, at: Date): Promise<number> {
    const rows = await this.tx.query<{ id: string }>(
      `UPDATE webhook_deliveries SET status = 'failed', error = $2, next_retry_at = NULL, due_at = NULL, updated_at = $3
       WHERE endpoint_id = $1 AND status = 'pending' RETURNING id`,
      [endpointId, error, at],
    );
    return rows.length;
  }

  async requeue(endpointId: string, deliveryId: string, at: Date): Promise<WebhookDelivery | null> {
    const [row] = await this.tx.query<WebhookDelivery>(
      `UPDATE webhook_deliveries d SET status = 'pending', next_retry_at = NULL, due_at = $3, updated_at = $3
       WHERE d.id = $1 AND d.endpoint_id = $2 AND d.status <> 'pending' RETURNING ${DELIVERY_COLUMNS}`,
      [deliveryId, endpointId, at],
    );
    return row ?? null;
  }

  async overdue(dueBefore: Date, limit: number): Promise<string[]> {
    const rows = await this.tx.query<{ id: string }>(
      "SELECT id FROM webhook_deliveries WHERE status = 'pending' AND due_at < $1 ORDER BY due_at LIMIT $2",
      [dueBefore, limit],
    );
    return rows.map((r) => r.id);
  }

  async prune(before: Date): Promise<{ deliveries: number; events: number }> {
    const deliveries = await this.tx.query<{ id: string }>('DELETE FROM webhook_deliveries WHERE created_at < $1 RETURNING id', [before]);
    const events = await this.tx.query<{ id: string }>(
      `DELETE FROM outbox_events ev WHERE ev.occurred_at < $1 AND ev.relayed_at IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = ev.id) RETURNING ev.id`,
      [before],
    );
    return { deliveries: deliveries.length, events: events.length };
  }
}

/** Timestamps come back from row_to_json as strings. */
function reviveEndpoint(raw: WebhookEndpointProps): WebhookEndpointProps {
  const date = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));
  return {
    ...raw,
    previousSecretUntil: date(raw.previousSecretUntil),
    lastSuccessAt: date(raw.lastSuccessAt),
    lastFailureAt: date(raw.lastFailureAt),
    disabledAt: date(raw.disabledAt),
    enabledAt: date(raw.enabledAt)!,
    createdAt: date(raw.createdAt)!,
    updatedAt: date(raw.updatedAt)!,
  };
}
