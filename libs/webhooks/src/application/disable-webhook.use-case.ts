import { Injectable } from '@nestjs/common';
import { type AuditActor, AuditLog, Clock, type Principal, UnitOfWork } from '#core';
import { ENDPOINT_DISABLED } from '../domain/webhook-delivery.js';
import type { DisableCause } from '../domain/webhook-endpoint.js';
import { webhookAudit } from './webhook-audit.js';
import { lockedEndpoint } from './webhook-endpoint-access.js';
import { WebhookDeliveryRepository } from './webhook-delivery.repository.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';
import { webhookEndpointView, type WebhookEndpointView } from './webhook-views.js';

/**
 * Why an endpoint was disabled by hand, as its `disabledMessage` says it: by whom in general terms (an admin, or the
 * API key's ID, which is not a secret); the audit log names the person.
 */
export function manualDisableCause(actor: AuditActor): DisableCause {
  const by: Record<AuditActor['kind'], string> = {
    admin: 'by an admin in the developer settings',
    api_key: actor.id ? `through the API with key ${actor.id}` : 'through the API',
    cli: 'from the command line',
    system: 'by the service',
  };
  return { reason: 'manual', message: `Disabled by hand ${by[actor.kind]}.` };
}

/**
 * Disables an endpoint by hand (reason `manual`): its pending deliveries fail with "endpoint disabled", as when it
 * is auto-disabled. An endpoint already disabled keeps its first reason. Recorded as `webhook.disabled` when it was
 * enabled.
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
      endpoint.disable(now, manualDisableCause(principal.actor));
      await this.endpoints.update(endpoint);
      const failed = await this.deliveries.failPending(id, ENDPOINT_DISABLED, now);
      if (wasEnabled) await this.audit.record(principal.actor, webhookAudit('webhook.disabled', id, { pendingDeliveriesFailed: failed }));
      return webhookEndpointView(endpoint.snapshot());
    });
  }
}
