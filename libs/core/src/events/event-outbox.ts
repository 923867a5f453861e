import { Injectable } from '@nestjs/common';
import { Clock } from '../clock/clock.js';
import { TransactionHost } from '../database/transaction.js';
import { newId } from '../ids/id.js';
import type { EventType } from './event-type.js';

/** The channel a PostgreSQL NOTIFY announces new outbox rows on (delivered at commit, to every listening process). */
export const OUTBOX_CHANNEL = 'help_center_outbox';

/** In-process wake-up for the outbox relay of this process, fired after the recording transaction commits. */
@Injectable()
export class OutboxSignal {
  private readonly listeners = new Set<() => void>();

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(): void {
    for (const listener of this.listeners) listener();
  }
}

/**
 * The transactional outbox: a use case records its events in the same transaction as the change, so a change
 * never commits without its events and an event never exists without its change. A relay (the worker) fans them
 * out to webhook deliveries.
 */
@Injectable()
export class EventOutbox {
  constructor(
    private readonly transactions: TransactionHost,
    private readonly clock: Clock,
    private readonly signal: OutboxSignal,
  ) {}

  /** Records an event; `data` is the resource as the API returns it. Only inside a unit of work. */
  async record(type: EventType, data: object): Promise<string> {
    if (!this.transactions.inTransaction) throw new Error(`Event ${type} recorded outside a unit of work`);
    const id = newId('evt');
    // One round trip: the row and the NOTIFY (PostgreSQL folds identical notifications of one transaction).
    await this.transactions.query(
      `WITH recorded AS (INSERT INTO outbox_events (id, type, data, occurred_at) VALUES ($1, $2, $3, $4) RETURNING id)
       SELECT pg_notify('${OUTBOX_CHANNEL}', '') FROM recorded`,
      [id, type, JSON.stringify(data), this.clock.now()],
    );
    this.transactions.afterCommit(() => this.signal.emit());
    return id;
  }
}
