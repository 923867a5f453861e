import { Injectable } from '@nestjs/common';
import { AuditLog, NotFoundError, type Principal, UnitOfWork } from '#core';
import { urlOrigin, webhookAudit } from './webhook-audit.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';

/** Deletes an endpoint with its deliveries (pending ones are not sent); 404 when there is none. Recorded as `webhook.deleted`. */
@Injectable()
export class DeleteWebhookUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditLog,
  ) {}

  async execute(id: string, principal: Principal): Promise<{ id: string; deleted: true }> {
    return this.unitOfWork.run(async () => {
      // The view, not the endpoint: one whose secret no longer opens can still be deleted.
      const view = await this.endpoints.findView(id);
      if (!view || !(await this.endpoints.delete(id))) throw new NotFoundError('Webhook endpoint', id);
      await this.audit.record(principal.actor, webhookAudit('webhook.deleted', id, { urlOrigin: urlOrigin(view.url), events: view.events }));
      return { id, deleted: true as const };
    });
  }
}
