import type { KeysetQuery, KeysetSlice } from '#core';
import type { WebhookEndpoint } from '../domain/webhook-endpoint.js';
import type { DeliveryAttempt, DeliveryStatus, WebhookDelivery } from '../domain/webhook-delivery.js';

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

export abstract class WebhookEndpointRepository {
  abstract insert(endpoint: WebhookEndpoint): Promise<void>;
  abstract update(endpoint: WebhookEndpoint): Promise<void>;
  abstract delete(id: string): Promise<boolean>;
  abstract find(id: string): Promise<WebhookEndpoint | null>;
  abstract findForUpdate(id: string): Promise<WebhookEndpoint | null>;
  /** Newest first. */
  abstract list(query: KeysetQuery): Promise<KeysetSlice<WebhookEndpoint>>;
  /** Adds one to failureCount and stamps lastFailureAt, atomically; the endpoint after the change. */
  abstract recordFailure(id: string, at: Date): Promise<WebhookEndpoint | null>;
  /** Disables it if enabled; true when this call disabled it. */
  abstract disableIfEnabled(id: string, at: Date): Promise<boolean>;
  /** Seals again, with the current encryption key, every stored secret that is plain or under a previous key; returns how many endpoints. */
  abstract resealSecrets(): Promise<number>;
}

export abstract class WebhookDeliveryRepository {
  /**
   * Claims up to `limit` events not relayed yet (skipping rows another relay holds), creates one pending delivery
   * per enabled endpoint subscribed to each, and marks the events relayed. The new deliveries' IDs.
   */
  abstract relayBatch(limit: number, at: Date): Promise<{ events: number; deliveryIds: string[] }>;
  /** A webhook.test event for one endpoint only (recorded as relayed) and its delivery; the delivery's ID. */
  abstract createTestDelivery(endpointId: string, data: object, at: Date): Promise<string>;
  abstract work(deliveryId: string): Promise<DeliveryWork | null>;
  abstract find(endpointId: string, deliveryId: string): Promise<WebhookDelivery | null>;
  /** Newest first. */
  abstract list(query: KeysetQuery, filter: DeliveryFilter): Promise<KeysetSlice<WebhookDelivery>>;
  /** The `limit` most recent deliveries of an endpoint, newest first. */
  abstract recent(endpointId: string, limit: number): Promise<WebhookDelivery[]>;
  abstract attempts(deliveryId: string): Promise<DeliveryAttempt[]>;
  abstract recordAttempt(deliveryId: string, outcome: AttemptOutcome): Promise<void>;
  /** Successful attempt: the delivery succeeds, the attempt is recorded, the endpoint's failureCount resets and lastSuccessAt moves; atomically. */
  abstract markSuccess(deliveryId: string, outcome: AttemptOutcome): Promise<void>;
  /** Failed attempt: pending with the next retry time, or failed when nextRetryAt is null. */
  abstract markFailure(deliveryId: string, outcome: AttemptOutcome, nextRetryAt: Date | null): Promise<void>;
  /** Every pending delivery of the endpoint becomes failed with `error`. */
  abstract failPending(endpointId: string, error: string, at: Date): Promise<number>;
  /** A failed or successful delivery back to pending (manual retry); false when it was pending. */
  abstract requeue(deliveryId: string, at: Date): Promise<boolean>;
  /** Pending deliveries due before `dueBefore` (their job may be lost), oldest first. */
  abstract overdue(dueBefore: Date, limit: number): Promise<string[]>;
  /** Deletes deliveries, and relayed events without deliveries, older than `before`. */
  abstract prune(before: Date): Promise<{ deliveries: number; events: number }>;
}
