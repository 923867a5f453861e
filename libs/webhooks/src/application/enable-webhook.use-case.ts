import { Injectable } from '@nestjs/common';
import { AuditLog, Clock, type Principal, UnitOfWork } from '#core';
import { webhookAudit } from './webhook-audit.js';
import { lockedEndpoint } from './webhook-endpoint-access.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';
import { webhookEndpointView, type WebhookEndpointView } from './webhook-views.js';

/**
 * Enables (re-enables: failureCount 0, disabledAt cleared) an endpoint; deliveries failed while it was disabled can
 * then be retried. Recorded as `webhook.enabled` when it changed something (it was disabled or had failures).
 */
@Injectable()
export class EnableWebhookUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
  ) {}

  async execute(id: string, principal: Principal): Promise<WebhookEndpointView> {
    return this.unitOfWork.run(async () => {
      const endpoint = await lockedEndpoint(this.endpoints, id);
      const before = endpoint.snapshot();
      endpoint.enable(this.clock.now());
      await this.endpoints.update(endpoint);
      if (!before.enabled || before.failureCount > 0) {
        await this.audit.record(principal.actor, webhookAudit('webhook.enabled', id, { wasEnabled: before.enabled, failureCount: before.failureCount }));
      }
      return webhookEndpointView(endpoint.snapshot());
    });
  }
}
