import { Injectable } from '@nestjs/common';
import { AuditLog, Clock, type Principal, UnitOfWork } from '#core';
import { ENDPOINT_DISABLED } from '../domain/webhook-delivery.js';
import { webhookAudit } from './webhook-audit.js';
import { lockedEndpoint } from './webhook-endpoint-access.js';
import { WebhookDeliveryRepository } from './webhook-delivery.repository.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';
import { webhookEndpointView, type WebhookEndpointView } from './webhook-views.js';

/**
 * Disables an endpoint by hand: its pending deliveries fail with "endpoint disabled", as when it is auto-disabled.
 * Recorded as `webhook.disabled` when it was enabled.
 */
@Injectable()
export class DisableWebhookUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
  ) {}

  async execute(id: string, principal: Principal): Promise<WebhookEndpointView> {
    return this.unitOfWork.run(async () => {
      const endpoint = await lockedEndpoint(this.endpoints, id);
      const wasEnabled = endpoint.enabled;
      const now = this.clock.now();
      endpoint.disable(now);
      await this.endpoints.update(endpoint);
      const failed = await this.deliveries.failPending(id, ENDPOINT_DISABLED, now);
      if (wasEnabled) await this.audit.record(principal.actor, webhookAudit('webhook.disabled', id, { pendingDeliveriesFailed: failed }));
      return webhookEndpointView(endpoint.snapshot());
    });
  }
}
