import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import { WebhookDeliveryRepository } from './webhook-delivery.repository.js';

/** Delivery records are kept for 30 days. */
const DELIVERY_RETENTION_MS = 30 * 24 * 3600 * 1000;

/** Deletes deliveries (with their attempts) and relayed events older than 30 days. */
@Injectable()
export class PruneWebhookDeliveriesUseCase {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute(): Promise<{ deliveries: number; events: number }> {
    const before = new Date(this.clock.now().getTime() - DELIVERY_RETENTION_MS);
    return this.unitOfWork.run(() => this.deliveries.prune(before));
  }
}
