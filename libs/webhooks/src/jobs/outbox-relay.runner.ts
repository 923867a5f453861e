import { type BeforeApplicationShutdown, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DatabaseConfig, OutboxNotifications, OutboxSignal, WebhookConfig, withTimeout } from '#core';
import { RelayOutboxEventsUseCase } from '../application/relay-outbox-events.use-case.js';
import { RequeueOverdueDeliveriesUseCase } from '../application/requeue-overdue-deliveries.use-case.js';

/**
 * Runs the outbox relay in a process that runs jobs: woken at once by the in-process signal (events recorded in
 * this process) and by PostgreSQL LISTEN/NOTIFY through OutboxNotifications (events recorded by any process: other
 * API processes, the CLI), and swept periodically (WEBHOOK_SWEEP_INTERVAL_MS) for anything a wake-up missed and
 * for overdue deliveries. One relay run and one sweep at a time; a wake-up during a run makes it go round once
 * more. It stops before the database closes, waiting for the runs under way.
 */
@Injectable()
export class OutboxRelayRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('OutboxRelay');
  private readonly unsubscribe: Array<() => void> = [];
  private sweepTimer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private sweeping: Promise<void> | null = null;
  private readonly stopping = new AbortController();
  /** Runs not finished yet, including any a deadline gave up waiting for. */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly relay: RelayOutboxEventsUseCase,
    private readonly requeueOverdue: RequeueOverdueDeliveriesUseCase,
    private readonly signal: OutboxSignal,
    private readonly notifications: OutboxNotifications,
    private readonly webhooks: WebhookConfig,
    private readonly database: DatabaseConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.unsubscribe.push(this.signal.subscribe(() => void this.wake()));
    this.unsubscribe.push(this.notifications.subscribe(() => void this.wake()));
    this.sweepTimer = setInterval(() => void this.sweep(), this.webhooks.sweepIntervalMs);
    this.sweepTimer.unref();
    void this.sweep();
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.stop();
  }

  private get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  /**
   * How long one relay or sweep run may take before the next wake-up starts a new one. Every query is bounded by
   * the statement timeout and queueing by its own timeout, so this only catches what those cannot (a run that
   * never settles); the run left behind cannot relay an event twice (claims are row locks, SKIP LOCKED).
   */
  private get runDeadlineMs(): number {
    return Math.max(60_000, this.database.statementTimeoutMs * 2);
  }

  /** Relays everything waiting; a wake-up during a run makes the run go round once more. Never throws. */
  wake(): Promise<void> {
    if (this.running) this.again = true;
    return this.single('running', 'Outbox relay', async () => {
      do {
        this.again = false;
        await this.relay.execute(this.stopping.signal);
      } while (this.again && !this.stopped);
    });
  }

  /** The periodic safety net: relay anything a wake-up missed, and re-queue overdue pending deliveries. Never throws. */
  sweep(): Promise<void> {
    return this.single('sweeping', 'Webhook sweep', async () => {
      await this.wake();
      await this.requeueOverdue.execute();
    });
  }

  /** No new runs; waits (up to `timeoutMs`) for those under way, so they finish before the database closes. */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopping.abort();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
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
}
