import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import pg from 'pg';
import { AppConfig, OUTBOX_CHANNEL, OutboxSignal } from '#core';
import { OutboxRelay } from '#webhooks';

/**
 * Runs the outbox relay in a process that runs jobs: woken at once by the in-process signal (events recorded in
 * this process) and by PostgreSQL LISTEN/NOTIFY (events recorded by any API process), and swept periodically
 * (WEBHOOK_SWEEP_INTERVAL_MS) for anything a wake-up missed.
 */
@Injectable()
export class OutboxRelayRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxRelay');
  private unsubscribe: (() => void) | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private listener: pg.Client | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly relay: OutboxRelay,
    private readonly signal: OutboxSignal,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.unsubscribe = this.signal.subscribe(() => void this.relay.wake());
    this.sweepTimer = setInterval(() => void this.relay.sweep(), this.config.webhooks.sweepIntervalMs);
    this.sweepTimer.unref();
    if (this.config.database.url) void this.listen();
    void this.relay.sweep();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    await this.listener?.end().catch(() => undefined);
  }

  /** A dedicated connection LISTENing on the outbox channel; reconnects after 1 s when it drops. */
  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.config.database.url! });
    client.on('notification', () => void this.relay.wake());
    client.on('error', (error: Error) => {
      this.logger.warn(`LISTEN connection: ${error.message}`);
      this.retryListen(client);
    });
    client.on('end', () => this.retryListen(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      this.listener = client;
      // Events recorded while this connection was down would otherwise wait for the sweep.
      void this.relay.wake();
    } catch (error) {
      this.logger.warn(`Cannot LISTEN for outbox events: ${(error as Error).message}`);
      this.retryListen(client);
    }
  }

  private retryListen(client: pg.Client): void {
    if (this.stopped || this.reconnectTimer || (this.listener && this.listener !== client)) return;
    this.listener = null;
    client.end().catch(() => undefined);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.listen();
    }, 1_000);
    this.reconnectTimer.unref();
  }
}
