import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import { ENDPOINT_DISABLED } from '../domain/webhook-delivery.js';
import { lockedEndpoint } from './webhook-endpoint-access.js';
import { WebhookDeliveryRepository } from './webhook-delivery.repository.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';
import { webhookEndpointView, type WebhookEndpointView } from './webhook-views.js';

/** Disables an endpoint by hand: its pending deliveries fail with "endpoint disabled", as when it is auto-disabled. */
@Injectable()
export class DisableWebhookUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(id: string): Promise<WebhookEndpointView> {
    return this.unitOfWork.run(async () => {
      const endpoint = await lockedEndpoint(this.endpoints, id);
      const now = this.clock.now();
      endpoint.disable(now);
      await this.endpoints.update(endpoint);
      await this.deliveries.failPending(id, ENDPOINT_DISABLED, now);
      return webhookEndpointView(endpoint.snapshot());
    });
  }
}
