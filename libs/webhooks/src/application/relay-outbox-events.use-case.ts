import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import { DeliveryDispatcher } from './delivery-dispatcher.js';
import { WebhookDeliveryRepository } from './webhook-delivery.repository.js';

const BATCH = 500;

/**
 * Moves outbox events to webhook deliveries: claims unrelayed events (FOR UPDATE SKIP LOCKED, so any number of
 * relays share the work), creates one pending delivery per subscribed, enabled endpoint in the same transaction,
 * then queues a job per delivery; batch after batch until none is waiting (or `signal` aborts, between batches).
 * The number of events relayed.
 */
@Injectable()
export class RelayOutboxEventsUseCase {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(signal?: AbortSignal): Promise<number> {
    let relayed = 0;
    while (!signal?.aborted) {
      const batch = await this.unitOfWork.run(() => this.deliveries.relayBatch(BATCH, this.clock.now()));
      if (batch.events === 0) break;
      relayed += batch.events;
      await this.dispatcher.enqueue(batch.deliveryIds);
      if (batch.events < BATCH) break;
    }
    return relayed;
  }
}
