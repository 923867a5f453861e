import { Injectable } from '@nestjs/common';
import { AuditLog, Clock, type Principal, UnitOfWork } from '#core';
import { DeliveryDispatcher } from './delivery-dispatcher.js';
import { webhookAudit } from './webhook-audit.js';
import { assertEnabled, lockedEndpoint } from './webhook-endpoint-access.js';
import { WebhookDeliveryRepository } from './webhook-delivery.repository.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';
import { webhookEndpointView } from './webhook-views.js';

/**
 * Queues a webhook.test event (data: the endpoint) for this endpoint only, through the same pipeline (signing,
 * retries, records). 409 when the endpoint is disabled, or when its signing secret does not open
 * (WebhookSecretUnreadableError): nothing could be signed for it. Recorded as `webhook.test_sent`.
 */
@Injectable()
export class SendTestWebhookUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
  ) {}

  async execute(endpointId: string, principal: Principal): Promise<{ deliveryId: string }> {
    const deliveryId = await this.unitOfWork.run(async () => {
      const endpoint = await lockedEndpoint(this.endpoints, endpointId);
      assertEnabled(endpoint);
      // Relayed at once: a test event goes to this endpoint only, not to every subscriber of "*".
      const created = await this.deliveries.createTestDelivery(endpointId, webhookEndpointView(endpoint.snapshot()), this.clock.now());
      await this.audit.record(principal.actor, webhookAudit('webhook.test_sent', endpointId, { deliveryId: created }));
      return created;
    });
    await this.dispatcher.enqueue([deliveryId]);
    return { deliveryId };
  }
}
