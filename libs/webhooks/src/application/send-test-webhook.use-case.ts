import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import { DeliveryDispatcher } from './delivery-dispatcher.js';
import { assertEnabled, lockedEndpoint } from './webhook-endpoint-access.js';
import { WebhookDeliveryRepository } from './webhook-delivery.repository.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';
import { webhookEndpointView } from './webhook-views.js';

/**
 * Queues a webhook.test event (data: the endpoint) for this endpoint only, through the same pipeline (signing,
 * retries, records). 409 when the endpoint is disabled, or when its signing secret does not open
 * (WebhookSecretUnreadableError): nothing could be signed for it.
 */
@Injectable()
export class SendTestWebhookUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(endpointId: string): Promise<{ deliveryId: string }> {
    const deliveryId = await this.unitOfWork.run(async () => {
      const endpoint = await lockedEndpoint(this.endpoints, endpointId);
      assertEnabled(endpoint);
      // Relayed at once: a test event goes to this endpoint only, not to every subscriber of "*".
      return this.deliveries.createTestDelivery(endpointId, webhookEndpointView(endpoint.snapshot()), this.clock.now());
    });
    await this.dispatcher.enqueue([deliveryId]);
    return { deliveryId };
  }
}
