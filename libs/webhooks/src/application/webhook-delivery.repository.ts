import type { KeysetQuery, KeysetSlice } from '#core';
import type { DeliveryAttempt, DeliveryStatus, WebhookDelivery } from '../domain/webhook-delivery.js';
import type { WebhookEndpoint } from '../domain/webhook-endpoint.js';

export interface DeliveryFilter {
  readonly endpointId: string;
  readonly status?: DeliveryStatus;
}

/** What a delivery job needs: the delivery, its endpoint and the event body. */
export interface DeliveryWork {
  readonly delivery: WebhookDelivery;
  readonly endpoint: WebhookEndpoint;
  readonly event: { readonly id: string; readonly type: string; readonly occurredAt: Date; readonly data: unknown };
}

export interface AttemptOutcome {
  readonly attemptedAt: Date;
  readonly responseStatus: number | null;
  readonly durationMs: number;
  readonly error: string | null;
  readonly responseExcerpt: string | null;
}

export abstract class WebhookDeliveryRepository {
  /**
   * Claims up to `limit` events not relayed yet (skipping rows another relay holds), creates one pending delivery
   * per enabled endpoint subscribed to each, and marks the events relayed. The new deliveries' IDs.
   */
  abstract relayBatch(limit: number, at: Date): Promise<{ events: number; deliveryIds: string[] }>;
  /** A webhook.test event for one endpoint only (recorded as relayed) and its delivery; the delivery's ID. */
  abstract createTestDelivery(endpointId: string, data: object, at: Date): Promise<string>;
  /** Throws WebhookSecretUnreadableError when the endpoint's secret does not open (that delivery only). */
  abstract work(deliveryId: string): Promise<DeliveryWork | null>;
  abstract find(endpointId: string, deliveryId: string): Promise<WebhookDelivery | null>;
  /** Newest first. */
  abstract list(query: KeysetQuery, filter: DeliveryFilter): Promise<KeysetSlice<WebhookDelivery>>;
  /** The `limit` most recent deliveries of an endpoint, newest first. */
  abstract recent(endpointId: string, limit: number): Promise<WebhookDelivery[]>;
  abstract attempts(deliveryId: string): Promise<DeliveryAttempt[]>;
  /** Successful attempt: the delivery succeeds, the attempt is recorded, the endpoint's failureCount resets and lastSuccessAt moves; atomically. */
  abstract markSuccess(deliveryId: string, outcome: AttemptOutcome): Promise<void>;
  /** Failed attempt of a pending delivery: pending with the next retry time, or failed when nextRetryAt is null; the attempt recorded. */
  abstract markFailure(deliveryId: string, outcome: AttemptOutcome, nextRetryAt: Date | null): Promise<void>;
  /** Every pending delivery of the endpoint becomes failed with `error`. */
  abstract failPending(endpointId: string, error: string, at: Date): Promise<number>;
  /** A failed or successful delivery back to pending (manual retry): the delivery as it is now; null when it was pending already. */
  abstract requeue(endpointId: string, deliveryId: string, at: Date): Promise<WebhookDelivery | null>;
  /** Pending deliveries due before `dueBefore` (their job may be lost), oldest first. */
  abstract overdue(dueBefore: Date, limit: number): Promise<string[]>;
  /** Deletes deliveries, and relayed events without deliveries, older than `before`. */
  abstract prune(before: Date): Promise<{ deliveries: number; events: number }>;
}
