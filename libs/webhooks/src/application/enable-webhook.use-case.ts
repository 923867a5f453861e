import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import { lockedEndpoint } from './webhook-endpoint-access.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';
import { webhookEndpointView, type WebhookEndpointView } from './webhook-views.js';

/** Enables (re-enables: failureCount 0, disabledAt cleared) an endpoint; deliveries failed while it was disabled can then be retried. */
@Injectable()
export class EnableWebhookUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(id: string): Promise<WebhookEndpointView> {
    return this.unitOfWork.run(async () => {
      const endpoint = await lockedEndpoint(this.endpoints, id);
      endpoint.enable(this.clock.now());
      await this.endpoints.update(endpoint);
      return webhookEndpointView(endpoint.snapshot());
    });
  }
}
