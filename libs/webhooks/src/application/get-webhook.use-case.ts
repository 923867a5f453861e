import { Injectable } from '@nestjs/common';
import { NotFoundError } from '#core';
import { WebhookDeliveryRepository } from './webhook-delivery.repository.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';
import { webhookDeliveryView, type WebhookEndpointDetailView } from './webhook-views.js';

/** Deliveries shown with a single endpoint (source §8). */
const RECENT_DELIVERIES = 20;

/** An endpoint with its 20 most recent deliveries, newest first. */
@Injectable()
export class GetWebhookUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
  ) {}

  async execute(id: string): Promise<WebhookEndpointDetailView> {
    const endpoint = await this.endpoints.findView(id);
    if (!endpoint) throw new NotFoundError('Webhook endpoint', id);
    const deliveries = await this.deliveries.recent(id, RECENT_DELIVERIES);
    return { ...endpoint, deliveries: deliveries.map(webhookDeliveryView) };
  }
}
