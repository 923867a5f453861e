import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import pg from 'pg';
import { Database } from '../database/database.js';
import { OUTBOX_CHANNEL } from './event-outbox.js';

const RECONNECT_MS = 1_000;
/** A LISTEN connection that has heard nothing for this long is asked a question, so a dead one is noticed. */
const HEARTBEAT_MS = 30_000;

/**
 * PostgreSQL LISTEN on the outbox channel: tells its subscribers when any process committed outbox events. One
 * dedicated connection per process, opened with the first subscriber. A lost connection (the server restarted,
 * the backend was terminated, the network dropped) is logged and reopened after a second, and subscribers are told
 * once it is back, because events committed while it was down announced themselves to nobody.
 */
@Injectable()
export class OutboxNotifications implements BeforeApplicationShutdown {
  private readonly logger = new Logger('OutboxNotifications');
  private readonly listeners = new Set<() => void>();
  private client: pg.Client | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private stopped = false;
  private connected = false;

  constructor(@Inject(Database) private readonly database: Database) {}

  /** Starts listening (once) and calls `listener` on every notification and after every reconnect. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    if (!this.client && !this.reconnectTimer && !this.stopped) void this.connect();
    return () => this.listeners.delete(listener);
  }

  /** Whether the LISTEN connection is up (for tests and diagnostics). */
  get listening(): boolean {
    return this.connected;
  }

  /** Before the database closes (in embedded mode its server stops then). */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.clearTimers();
    const client = this.client;
    this.client = null;
    this.connected = false;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client(this.database.connectionConfig('listen'));
    this.client = client;
    client.on('notification', () => this.notify());
    client.on('error', (error: Error) => this.lost(client, error.message));
    client.on('end', () => this.lost(client, 'connection closed'));
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    } catch (error) {
      this.lost(client, (error as Error).message);
      return;
    }
    if (this.client !== client) return;
    this.connected = true;
    this.heartbeat = setInterval(() => {
      client.query('SELECT 1').catch((error: Error) => this.lost(client, `heartbeat: ${error.message}`));
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
    this.notify();
  }

  private lost(client: pg.Client, cause: string): void {
    if (this.stopped || this.client !== client) return;
    this.logger.warn(`LISTEN connection lost (${cause}); reconnecting in ${RECONNECT_MS} ms`);
    this.client = null;
    this.connected = false;
    this.clearTimers();
    client.end().catch(() => undefined);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect();
    }, RECONNECT_MS);
    this.reconnectTimer.unref();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  private clearTimers(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.reconnectTimer = null;
    this.heartbeat = null;
  }
}
