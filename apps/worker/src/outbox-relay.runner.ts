import { Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig, OutboxNotifications, OutboxSignal } from '#core';
import { OutboxRelay } from '#webhooks';

/**
 * Runs the outbox relay in a process that runs jobs: woken at once by the in-process signal (events recorded in
 * this process) and by PostgreSQL LISTEN/NOTIFY (events recorded by any process: other API processes, the CLI),
 * and swept periodically (WEBHOOK_SWEEP_INTERVAL_MS) for anything a wake-up missed. It stops before the database
 * closes, waiting for the run under way.
 */
@Injectable()
export class OutboxRelayRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly unsubscribe: Array<() => void> = [];
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly relay: OutboxRelay,
    private readonly signal: OutboxSignal,
    private readonly notifications: OutboxNotifications,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.unsubscribe.push(this.signal.subscribe(() => void this.relay.wake()));
    this.unsubscribe.push(this.notifications.subscribe(() => void this.relay.wake()));
    this.sweepTimer = setInterval(() => void this.relay.sweep(), this.config.webhooks.sweepIntervalMs);
    this.sweepTimer.unref();
    void this.relay.sweep();
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.relay.stop();
  }
}
