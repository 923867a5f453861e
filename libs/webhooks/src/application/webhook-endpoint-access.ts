import { InvalidStateError, NotFoundError } from '#core';
import type { WebhookEndpoint } from '../domain/webhook-endpoint.js';
import type { WebhookEndpointRepository } from './webhook-endpoint.repository.js';

// How the endpoint use cases find the endpoint a request names.

/** The endpoint, locked until the end of the current transaction; 404 when there is none. */
export async function lockedEndpoint(endpoints: WebhookEndpointRepository, id: string): Promise<WebhookEndpoint> {
  const endpoint = await endpoints.findForUpdate(id);
  if (!endpoint) throw new NotFoundError('Webhook endpoint', id);
  return endpoint;
}

/** 404 unless the endpoint exists (the routes under /webhooks/{id}/deliveries). */
export async function assertEndpointExists(endpoints: WebhookEndpointRepository, id: string): Promise<void> {
  if (!(await endpoints.exists(id))) throw new NotFoundError('Webhook endpoint', id);
}

/** Nothing is sent to a disabled endpoint: 409 until it is enabled again. */
export function assertEnabled(endpoint: WebhookEndpoint): void {
  if (!endpoint.enabled) throw new InvalidStateError(`Webhook endpoint ${endpoint.id} is disabled; enable it first`);
}
