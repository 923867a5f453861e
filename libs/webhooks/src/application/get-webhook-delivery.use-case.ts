import { Injectable } from '@nestjs/common';
import { NotFoundError } from '#core';
import { assertEndpointExists } from './webhook-endpoint-access.js';
import { WebhookDeliveryRepository } from './webhook-delivery.repository.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';
import { deliveryAttemptView, type WebhookDeliveryDetailView, webhookDeliveryView } from './webhook-views.js';

/** A delivery of the endpoint with every attempt, oldest first (404 for a delivery of another endpoint). */
@Injectable()
export class GetWebhookDeliveryUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
  ) {}

  async execute(endpointId: string, deliveryId: string): Promise<WebhookDeliveryDetailView> {
    await assertEndpointExists(this.endpoints, endpointId);
    const delivery = await this.deliveries.find(endpointId, deliveryId);
    if (!delivery) throw new NotFoundError('Webhook delivery', deliveryId);
    const attempts = await this.deliveries.attempts(deliveryId);
    return { ...webhookDeliveryView(delivery), attemptHistory: attempts.map(deliveryAttemptView) };
  }
}
