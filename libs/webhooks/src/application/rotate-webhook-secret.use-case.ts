import { Injectable } from '@nestjs/common';
import { AuditLog, Clock, type Principal, UnitOfWork } from '#core';
import { webhookAudit } from './webhook-audit.js';
import { lockedEndpoint } from './webhook-endpoint-access.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';
import { type RotatedWebhookSecretView, webhookEndpointView } from './webhook-views.js';

/** A new secret, returned once; the previous one keeps signing beside it for 24 hours. Recorded as `webhook.secret_rotated` (without either secret). */
@Injectable()
export class RotateWebhookSecretUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
  ) {}

  async execute(id: string, principal: Principal): Promise<RotatedWebhookSecretView> {
    return this.unitOfWork.run(async () => {
      const endpoint = await lockedEndpoint(this.endpoints, id);
      const secret = endpoint.rotateSecret(this.clock.now());
      await this.endpoints.update(endpoint);
      const e = endpoint.snapshot();
      await this.audit.record(principal.actor, webhookAudit('webhook.secret_rotated', id, { gracePeriodEndsAt: e.previousSecretUntil!.toISOString() }));
      return { ...webhookEndpointView(e), secret, previousSecretExpiresAt: e.previousSecretUntil!.toISOString() };
    });
  }
}
