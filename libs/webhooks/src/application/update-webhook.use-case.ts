import { Injectable } from '@nestjs/common';
import { AuditLog, Clock, type Principal, UnitOfWork } from '#core';
import type { WebhookEndpointChanges } from '../domain/webhook-endpoint.js';
import { lockedEndpoint } from './webhook-endpoint-access.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';
import { urlOrigin, webhookAudit } from './webhook-audit.js';
import { WebhookUrlPolicy } from './webhook-sender.port.js';
import { webhookEndpointView, type WebhookEndpointView } from './webhook-views.js';

/** url (checked again), events and description. New events are checked against `principal`'s scopes, which then decide what the endpoint receives. */
@Injectable()
export class UpdateWebhookUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly urls: WebhookUrlPolicy,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
  ) {}

  async execute(id: string, changes: WebhookEndpointChanges, principal: Principal): Promise<WebhookEndpointView> {
    // Resolved before the row is locked: a slow DNS answer must not hold the lock.
    const url = changes.url !== undefined ? await this.urls.check(changes.url) : undefined;
    return this.unitOfWork.run(async () => {
      const endpoint = await lockedEndpoint(this.endpoints, id);
      endpoint.update({ ...changes, url }, principal.granted, this.clock.now());
      await this.endpoints.update(endpoint);
      const e = endpoint.snapshot();
      const changed = (['url', 'events', 'description'] as const).filter((field) => changes[field] !== undefined);
      await this.audit.record(principal.actor, webhookAudit('webhook.updated', id, { changed, urlOrigin: urlOrigin(e.url), events: e.events, description: e.description }));
      return webhookEndpointView(e);
    });
  }
}
