import { Injectable, Logger } from '@nestjs/common';
import { AppConfig, Clock, UnitOfWork, withTimeout } from '#core';
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
  private sweeping: Promise<void> | null = null;
  private stopped = false;
  /** Runs not finished yet, including any a deadline gave up waiting for. */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /**
   * How long one relay or sweep run may take before the next wake-up starts a new one. Every query is bounded by
   * the statement timeout and queueing by its own timeout, so this only catches what those cannot (a run that
   * never settles); the run left behind cannot relay an event twice (claims are row locks, SKIP LOCKED).
   */
  private get runDeadlineMs(): number {
    return Math.max(60_000, this.config.database.statementTimeoutMs * 2);
  }

  /** Relays everything waiting; a wake-up during a run makes the run go round once more. Never throws. */
  wake(): Promise<void> {
    if (this.running) this.again = true;
    return this.single('running', 'Outbox relay', async () => {
      do {
        this.again = false;
        await this.relayAll();
      } while (this.again && !this.stopped);
    });
  }

  /** The periodic safety net: relay anything a wake-up missed, and re-queue overdue pending deliveries. Never throws. */
  sweep(): Promise<void> {
    return this.single('sweeping', 'Webhook sweep', async () => {
      await this.wake();
      const dueBefore = new Date(this.clock.now().getTime() - this.config.webhooks.sweepIntervalMs);
      const overdue = await this.deliveries.overdue(dueBefore, SWEEP_BATCH);
      if (overdue.length > 0) await this.dispatcher.enqueue(overdue);
    });
  }

  /**
   * One run of `work` at a time in `slot`: a call while one is under way gets that one. The run is tracked (for
   * `stop`) and bounded (logged when it fails or outlives the deadline); the slot is freed when it settles.
   */
  private single(slot: 'running' | 'sweeping', what: string, work: () => Promise<void>): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const current = this[slot];
    if (current) return current;
    const run: Promise<void> = this.bounded(this.track(work()), what).finally(() => {
      if (this[slot] === run) this[slot] = null;
    });
    this[slot] = run;
    return run;
  }

  /** No new runs; waits (up to `timeoutMs`) for those under way, so they finish before the database closes. */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopped = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.inFlight]),
      new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
    ]);
    clearTimeout(timer);
  }

  private track<T>(run: Promise<T>): Promise<T> {
    this.inFlight.add(run);
    const forget = () => this.inFlight.delete(run);
    run.then(forget, forget);
    return run;
  }

  /** The run's outcome, logged with its cause when it fails or outlives the deadline; never rejects. */
  private async bounded(run: Promise<void>, what: string): Promise<void> {
    try {
      await withTimeout(run, this.runDeadlineMs, `a run did not finish within ${this.runDeadlineMs} ms; the next one starts afresh`);
    } catch (error) {
      this.logger.warn(`${what}: ${(error as Error).message}`);
    }
  }

  private async relayAll(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const batch = await this.unitOfWork.run(() => this.deliveries.relayBatch(BATCH, this.clock.now()));
      if (batch.events === 0) return;
      await this.dispatcher.enqueue(batch.deliveryIds);
      if (batch.events < BATCH) return;
    }
  }
}
