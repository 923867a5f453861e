import { Injectable } from '@nestjs/common';
import { Clock, type Principal, UnitOfWork } from '#core';
import type { WebhookEndpointChanges } from '../domain/webhook-endpoint.js';
import { lockedEndpoint } from './webhook-endpoint-access.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';
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
  ) {}

  async execute(id: string, changes: WebhookEndpointChanges, principal: Principal): Promise<WebhookEndpointView> {
    // Resolved before the row is locked: a slow DNS answer must not hold the lock.
    const url = changes.url !== undefined ? await this.urls.check(changes.url) : undefined;
    return this.unitOfWork.run(async () => {
      const endpoint = await lockedEndpoint(this.endpoints, id);
      endpoint.update({ ...changes, url }, principal.granted, this.clock.now());
      await this.endpoints.update(endpoint);
      return webhookEndpointView(endpoint.snapshot());
    });
  }
}
