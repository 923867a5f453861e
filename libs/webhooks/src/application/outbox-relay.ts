import { Injectable, Logger } from '@nestjs/common';
import { AppConfig, Clock, UnitOfWork } from '#core';
import { DeliveryDispatcher } from './delivery-dispatcher.js';
import { WebhookDeliveryRepository } from './webhook.repositories.js';

const BATCH = 500;
const SWEEP_BATCH = 5_000;

/**
 * Moves outbox events to webhook deliveries: claims unrelayed events (FOR UPDATE SKIP LOCKED, so any number of
 * relays share the work), creates one pending delivery per subscribed, enabled endpoint in the same transaction,
 * then queues a job per delivery. Woken at once by NOTIFY or the in-process signal; `sweep` also re-queues
 * deliveries that are overdue, e.g. because their job was lost or Redis was down when they were created.
 */
@Injectable()
export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  private running: Promise<void> | null = null;
  private again = false;
  private sweeping = false;

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** Relays everything waiting; a wake-up during a run makes the run go round once more. Never throws. */
  wake(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.relayAll();
        } while (this.again);
      } catch (error) {
        this.logger.warn(`Outbox relay: ${(error as Error).message}`);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** The periodic safety net: relay anything a wake-up missed, and re-queue overdue pending deliveries. */
  async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      await this.wake();
      const dueBefore = new Date(this.clock.now().getTime() - this.config.webhooks.sweepIntervalMs);
      const overdue = await this.deliveries.overdue(dueBefore, SWEEP_BATCH);
      if (overdue.length > 0) await this.dispatcher.enqueue(overdue);
    } catch (error) {
      this.logger.warn(`Webhook sweep: ${(error as Error).message}`);
    } finally {
      this.sweeping = false;
    }
  }

  private async relayAll(): Promise<void> {
    for (;;) {
      const batch = await this.unitOfWork.run(() => this.deliveries.relayBatch(BATCH, this.clock.now()));
      if (batch.events === 0) return;
      await this.dispatcher.enqueue(batch.deliveryIds);
      if (batch.events < BATCH) return;
    }
  }
}
