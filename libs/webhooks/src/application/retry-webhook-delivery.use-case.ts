import { Injectable } from '@nestjs/common';
import { AuditLog, Clock, InvalidStateError, NotFoundError, type Principal, UnitOfWork } from '#core';
import { DeliveryDispatcher } from './delivery-dispatcher.js';
import { webhookAudit } from './webhook-audit.js';
import { assertEnabled, lockedEndpoint } from './webhook-endpoint-access.js';
import { WebhookDeliveryRepository } from './webhook-delivery.repository.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';
import { webhookDeliveryView, type WebhookDeliveryView } from './webhook-views.js';

/**
 * Sends a failed (or already successful) delivery again, with the same `webhook-id`: the delivery as it is now,
 * pending. A pending delivery is already on its way (409); a disabled endpoint must be enabled first (409).
 * Retries of one endpoint's deliveries take turns on the endpoint's row, so of two retries at once one wins.
 * Recorded as `webhook.delivery_retried`.
 */
@Injectable()
export class RetryWebhookDeliveryUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
  ) {}

  async execute(endpointId: string, deliveryId: string, principal: Principal): Promise<WebhookDeliveryView> {
    const requeued = await this.unitOfWork.run(async () => {
      assertEnabled(await lockedEndpoint(this.endpoints, endpointId));
      if (!(await this.deliveries.find(endpointId, deliveryId))) throw new NotFoundError('Webhook delivery', deliveryId);
      const delivery = await this.deliveries.requeue(endpointId, deliveryId, this.clock.now());
      if (!delivery) throw new InvalidStateError(`Webhook delivery ${deliveryId} is pending already`);
      await this.audit.record(principal.actor, webhookAudit('webhook.delivery_retried', endpointId, { deliveryId }));
      return delivery;
    });
    // Queued once committed, so the job finds the delivery pending.
    await this.dispatcher.requeue(deliveryId);
    return webhookDeliveryView(requeued);
  }
}
