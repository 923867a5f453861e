import { Injectable } from '@nestjs/common';
import { AuditLog, Clock, type Principal, UnitOfWork } from '#core';
import { WebhookEndpoint, type WebhookEndpointInput } from '../domain/webhook-endpoint.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';
import { urlOrigin, webhookAudit } from './webhook-audit.js';
import { WebhookUrlPolicy } from './webhook-sender.port.js';
import { webhookEndpointView, type WebhookEndpointWithSecretView } from './webhook-views.js';

/** Registers an endpoint; its secret is returned here (and by rotation) only. */
@Injectable()
export class CreateWebhookUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly urls: WebhookUrlPolicy,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditLog,
  ) {}

  /** The endpoint receives only events `principal` may read (403 for a named event it may not). Recorded as `webhook.created`. */
  async execute(input: WebhookEndpointInput, principal: Principal): Promise<WebhookEndpointWithSecretView> {
    const url = await this.urls.check(input.url);
    const endpoint = WebhookEndpoint.create({ url, events: input.events, description: input.description, scopes: principal.granted }, this.clock.now());
    const e = endpoint.snapshot();
    await this.unitOfWork.run(async () => {
      await this.endpoints.insert(endpoint);
      await this.audit.record(principal.actor, webhookAudit('webhook.created', e.id, { urlOrigin: urlOrigin(e.url), events: e.events, description: e.description }));
    });
    return { ...webhookEndpointView(e), secret: e.secret };
  }
}
