import { Injectable } from '@nestjs/common';
import { type CursorPage, type CursorRequest, Paginator } from '#core';
import type { DeliveryStatus } from '../domain/webhook-delivery.js';
import { assertEndpointExists } from './webhook-endpoint-access.js';
import { WebhookDeliveryRepository } from './webhook-delivery.repository.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';
import { webhookDeliveryView, type WebhookDeliveryView } from './webhook-views.js';

const DELIVERIES_LIST = 'webhook_deliveries';

/** An endpoint's deliveries, newest first, optionally of one status (a cursor belongs to its endpoint and status). */
@Injectable()
export class ListWebhookDeliveriesUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly paginator: Paginator,
  ) {}

  async execute(endpointId: string, request: CursorRequest & { status?: DeliveryStatus }): Promise<CursorPage<WebhookDeliveryView>> {
    await assertEndpointExists(this.endpoints, endpointId);
    const list = `${DELIVERIES_LIST}:${endpointId}:${request.status ?? 'all'}`;
    const filter = { endpointId, status: request.status };
    return this.paginator.list(list, request, 'created_desc', (query) => this.deliveries.list(query, filter), (d) => ({ value: d.createdAt.toISOString(), id: d.id }), webhookDeliveryView);
  }
}
