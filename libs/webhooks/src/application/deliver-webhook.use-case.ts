import { Injectable } from '@nestjs/common';
import { AuditLog, Clock, isEventType, mayReceiveEvent, RetryLaterError, SYSTEM_ACTOR, UnitOfWork, WebhookConfig } from '#core';
import { ENDPOINT_DISABLED, NOT_PERMITTED, parseRetryAfter, RESPONSE_EXCERPT_BYTES, retryDelayMs, SECRET_UNREADABLE } from '../domain/webhook-delivery.js';
import { quotableError, WebhookSecretUnreadableError } from '../domain/webhook-endpoint.js';
import { EndpointSlots } from './endpoint-slots.js';
import { webhookAudit } from './webhook-audit.js';
import { type AttemptOutcome, type DeliveryWork, WebhookDeliveryRepository } from './webhook-delivery.repository.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';
import { WebhookSender } from './webhook-sender.port.js';
import { signatureHeaders } from './webhook-signer.js';

/**
 * One attempt at one delivery (the deliver-webhook job). At-least-once and idempotent: a delivery that is no longer
 * pending is left alone. Success = any 2xx; a redirect is a failure. A failure schedules the next retry by
 * throwing RetryLaterError with the schedule's delay (or a longer Retry-After on 429/503), or fails the delivery
 * after the last attempt; sustained failures or a 410 disable the endpoint, which keeps the reason and a sentence
 * saying it (disabledReason, disabledMessage; also recorded as `webhook.auto_disabled` by the system). A delivery
 * whose endpoint's secret does not open cannot be signed: it fails at once, nothing sent (it can be retried by hand once the secret is restored).
 */
@Injectable()
export class DeliverWebhookUseCase {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly sender: WebhookSender,
    private readonly slots: EndpointSlots,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: WebhookConfig,
    private readonly audit: AuditLog,
  ) {}

  async execute(deliveryId: string): Promise<void> {
    const work = await this.workOf(deliveryId);
    if (!work || work.delivery.status !== 'pending') return;
    const endpoint = work.endpoint;
    if (!endpoint.enabled) {
      await this.deliveries.failPending(endpoint.id, ENDPOINT_DISABLED, this.clock.now());
      return;
    }
    // Checked again at delivery: the endpoint's events (and the scopes that chose them) may have changed since the
    // delivery was created. What it may no longer read is not sent.
    if (isEventType(work.event.type) && !mayReceiveEvent(work.event.type, endpoint.snapshot().createdByScopes)) {
      const now = this.clock.now();
      await this.deliveries.markFailure(deliveryId, { attemptedAt: now, responseStatus: null, durationMs: 0, error: NOT_PERMITTED, responseExcerpt: null }, null);
      return;
    }
    if (!this.slots.tryAcquire(endpoint.id)) {
      throw new RetryLaterError(`endpoint ${endpoint.id} is at its concurrency limit`, 100 + Math.floor(Math.random() * 400), true);
    }
    let outcome: AttemptOutcome;
    let retryAfter: string | undefined;
    try {
      const attemptedAt = this.clock.now();
      const body = JSON.stringify({ type: work.event.type, timestamp: work.event.occurredAt.toISOString(), data: work.event.data });
      const headers = { ...signatureHeaders(endpoint.signingSecrets(attemptedAt), deliveryId, attemptedAt, body), 'content-type': 'application/json' };
      const result = await this.sender.post(endpoint.url, headers, body);
      retryAfter = result.retryAfter;
      const error = result.error ?? (result.status !== null && (result.status < 200 || result.status > 299) ? `HTTP ${result.status}` : null);
      outcome = { attemptedAt, responseStatus: result.status, durationMs: result.durationMs, error, responseExcerpt: result.excerpt?.slice(0, RESPONSE_EXCERPT_BYTES) ?? null };
    } finally {
      this.slots.release(endpoint.id);
    }
    if (outcome.error === null) {
      await this.deliveries.markSuccess(deliveryId, outcome);
      return;
    }
    const retryIn = await this.unitOfWork.run(async () => {
      const now = this.clock.now();
      const failed = await this.endpoints.recordFailure(endpoint.id, outcome.attemptedAt);
      const policy = { minFailures: this.config.disableMinFailures, afterMs: this.config.disableAfterSeconds * 1000 };
      const cause = failed ? failed.autoDisableCause(policy, now, outcome) : null;
      if (failed && cause) {
        if (await this.endpoints.disableIfEnabled(endpoint.id, now, cause)) {
          await this.audit.record(
            SYSTEM_ACTOR,
            webhookAudit('webhook.auto_disabled', endpoint.id, {
              reason: cause.reason,
              message: cause.message,
              failureCount: failed.snapshot().failureCount,
              responseStatus: outcome.responseStatus,
              lastError: quotableError(outcome),
              deliveryId,
            }),
          );
        }
        await this.deliveries.markFailure(deliveryId, outcome, null);
        await this.deliveries.failPending(endpoint.id, ENDPOINT_DISABLED, now);
        return null;
      }
      const honoured = outcome.responseStatus === 429 || outcome.responseStatus === 503 ? parseRetryAfter(retryAfter, now) : null;
      const delay = retryDelayMs(work.delivery.attempts + 1, this.config.retryScheduleSeconds, honoured);
      await this.deliveries.markFailure(deliveryId, outcome, delay === null ? null : new Date(now.getTime() + delay));
      return delay;
    });
    if (retryIn !== null) throw new RetryLaterError(`delivery ${deliveryId} attempt ${work.delivery.attempts + 1} failed: ${outcome.error}`, retryIn);
  }

  /** The delivery's work; null when there is nothing to send (gone, or failed here because it cannot be signed). */
  private async workOf(deliveryId: string): Promise<DeliveryWork | null> {
    try {
      return await this.deliveries.work(deliveryId);
    } catch (error) {
      if (!(error instanceof WebhookSecretUnreadableError)) throw error;
      const now = this.clock.now();
      await this.deliveries.markFailure(deliveryId, { attemptedAt: now, responseStatus: null, durationMs: 0, error: SECRET_UNREADABLE, responseExcerpt: null }, null);
      return null;
    }
  }
}
