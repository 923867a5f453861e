import type { KeysetQuery, KeysetSlice } from '#core';
import type { DisableCause, WebhookEndpoint } from '../domain/webhook-endpoint.js';
import type { WebhookEndpointView } from './webhook-views.js';

/**
 * Webhook endpoints. Whatever returns a `WebhookEndpoint` opens its signing secrets, and throws
 * WebhookSecretUnreadableError when they do not open; views never touch the secrets.
 */
export abstract class WebhookEndpointRepository {
  abstract insert(endpoint: WebhookEndpoint): Promise<void>;
  abstract update(endpoint: WebhookEndpoint): Promise<void>;
  /** With its deliveries; false when there was none. */
  abstract delete(id: string): Promise<boolean>;
  abstract exists(id: string): Promise<boolean>;
  /** The endpoint, its row locked until the end of the current transaction. */
  abstract findForUpdate(id: string): Promise<WebhookEndpoint | null>;
  abstract findView(id: string): Promise<WebhookEndpointView | null>;
  /** Newest first. */
  abstract listViews(query: KeysetQuery): Promise<KeysetSlice<WebhookEndpointView>>;
  /** Adds one to failureCount and stamps lastFailureAt, atomically; the endpoint after the change. */
  abstract recordFailure(id: string, at: Date): Promise<WebhookEndpoint | null>;
  /** Disables it for `cause` if enabled; true when this call disabled it (an endpoint already disabled keeps its first reason). */
  abstract disableIfEnabled(id: string, at: Date, cause: DisableCause): Promise<boolean>;
  /** Seals again, with the current encryption key, every stored secret that is plain or under a previous key; returns how many endpoints. */
  abstract resealSecrets(): Promise<number>;
}
