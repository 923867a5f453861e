import { Injectable } from '@nestjs/common';
import { Clock, WebhookConfig } from '#core';
import { DeliveryDispatcher } from './delivery-dispatcher.js';
import { WebhookDeliveryRepository } from './webhook-delivery.repository.js';

const SWEEP_BATCH = 5_000;

/**
 * Queues again the pending deliveries due for longer than a sweep interval: their job was lost, or the queue
 * (Redis) could not be reached when they were created or retried. A delivery queued twice runs once (its ID is
 * the job's). How many were queued again.
 */
@Injectable()
export class RequeueOverdueDeliveriesUseCase {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly clock: Clock,
    private readonly config: WebhookConfig,
  ) {}

  async execute(): Promise<number> {
    const dueBefore = new Date(this.clock.now().getTime() - this.config.sweepIntervalMs);
    const overdue = await this.deliveries.overdue(dueBefore, SWEEP_BATCH);
    if (overdue.length > 0) await this.dispatcher.enqueue(overdue);
    return overdue.length;
  }
}
