import type { DeliveryAttempt, WebhookDelivery } from '../domain/webhook-delivery.js';
import type { DisabledReason, WebhookEndpointProps } from '../domain/webhook-endpoint.js';

// The JSON shapes of webhook resources as the API returns them (also the data of webhook.test events).

/** What an endpoint shows: everything but its secrets. */
export type WebhookEndpointFields = Pick<
  WebhookEndpointProps,
  | 'id'
  | 'url'
  | 'events'
  | 'enabled'
  | 'description'
  | 'failureCount'
  | 'lastSuccessAt'
  | 'lastFailureAt'
  | 'disabledAt'
  | 'disabledReason'
  | 'disabledMessage'
  | 'createdAt'
  | 'updatedAt'
>;

export interface WebhookEndpointView {
  readonly id: string;
  readonly url: string;
  readonly events: string[];
  readonly enabled: boolean;
  readonly description: string | null;
  readonly failureCount: number;
  readonly lastSuccessAt: string | null;
  readonly lastFailureAt: string | null;
  readonly disabledAt: string | null;
  /** Why it is disabled: `manual`, `gone` or `sustained_failures`; null while enabled (or disabled before reasons were recorded). */
  readonly disabledReason: DisabledReason | null;
  /** The reason in one sentence (never a secret nor the URL's path or query); null when disabledReason is. */
  readonly disabledMessage: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** At creation and rotation only: the signing secret. */
export interface WebhookEndpointWithSecretView extends WebhookEndpointView {
  readonly secret: string;
}

export interface RotatedWebhookSecretView extends WebhookEndpointWithSecretView {
  /** Until then the previous secret signs beside the new one. */
  readonly previousSecretExpiresAt: string;
}

export interface WebhookDeliveryView {
  readonly id: string;
  readonly eventType: string;
  readonly status: string;
  readonly responseStatus: number | null;
  readonly attempts: number;
  readonly error: string | null;
  readonly createdAt: string;
  readonly deliveredAt: string | null;
  readonly nextRetryAt: string | null;
}

export interface DeliveryAttemptView {
  readonly attempt: number;
  readonly attemptedAt: string;
  readonly responseStatus: number | null;
  readonly durationMs: number;
  readonly error: string | null;
  readonly responseExcerpt: string | null;
}

/** An endpoint with its most recent deliveries, newest first. */
export interface WebhookEndpointDetailView extends WebhookEndpointView {
  readonly deliveries: WebhookDeliveryView[];
}

/** A delivery with every attempt, oldest first. */
export interface WebhookDeliveryDetailView extends WebhookDeliveryView {
  readonly attemptHistory: DeliveryAttemptView[];
}

export function webhookEndpointView(e: WebhookEndpointFields): WebhookEndpointView {
  return {
    id: e.id,
    url: e.url,
    events: [...e.events],
    enabled: e.enabled,
    description: e.description,
    failureCount: e.failureCount,
    lastSuccessAt: e.lastSuccessAt?.toISOString() ?? null,
    lastFailureAt: e.lastFailureAt?.toISOString() ?? null,
    disabledAt: e.disabledAt?.toISOString() ?? null,
    disabledReason: e.enabled ? null : e.disabledReason,
    disabledMessage: e.enabled ? null : e.disabledMessage,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

export function webhookDeliveryView(d: WebhookDelivery): WebhookDeliveryView {
  return {
    id: d.id,
    eventType: d.eventType,
    status: d.status,
    responseStatus: d.responseStatus,
    attempts: d.attempts,
    error: d.error,
    createdAt: d.createdAt.toISOString(),
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    nextRetryAt: d.nextRetryAt?.toISOString() ?? null,
  };
}

export function deliveryAttemptView(a: DeliveryAttempt): DeliveryAttemptView {
  return {
    attempt: a.attempt,
    attemptedAt: a.attemptedAt.toISOString(),
    responseStatus: a.responseStatus,
    durationMs: a.durationMs,
    error: a.error,
    responseExcerpt: a.responseExcerpt,
  };
}
