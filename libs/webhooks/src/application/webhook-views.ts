import type { DeliveryAttempt, WebhookDelivery } from '../domain/webhook-delivery.js';
import type { WebhookEndpoint } from '../domain/webhook-endpoint.js';

// The JSON shapes of webhook resources as the API returns them (also the data of webhook.test events).

export function webhookEndpointView(endpoint: WebhookEndpoint) {
  const e = endpoint.snapshot();
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    enabled: e.enabled,
    description: e.description,
    failureCount: e.failureCount,
    lastSuccessAt: e.lastSuccessAt?.toISOString() ?? null,
    lastFailureAt: e.lastFailureAt?.toISOString() ?? null,
    disabledAt: e.disabledAt?.toISOString() ?? null,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

export function webhookDeliveryView(d: WebhookDelivery) {
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

export function deliveryAttemptView(a: DeliveryAttempt) {
  return {
    attempt: a.attempt,
    attemptedAt: a.attemptedAt.toISOString(),
    responseStatus: a.responseStatus,
    durationMs: a.durationMs,
    error: a.error,
    responseExcerpt: a.responseExcerpt,
  };
}
