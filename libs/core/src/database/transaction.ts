import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager } from 'typeorm';
import type { Database } from './database.js';

/**
 * Port: runs a piece of work atomically. Everything the work writes through repositories (including
 * outbox events) commits together or not at all.
 */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * The entity manager repositories must use: the current transaction's inside `UnitOfWork.run`,
 * the pool's otherwise. (With embedded PGlite another connection would wait for the open transaction.)
 */
export class TransactionHost extends UnitOfWork {
  private readonly storage = new AsyncLocalStorage<EntityManager>();

  constructor(private readonly database: Database) {
    super();
  }

  get manager(): EntityManager {
    return this.storage.getStore() ?? this.database.manager;
  }

  get inTransaction(): boolean {
    return this.storage.getStore() !== undefined;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction) return work();
    return this.database.dataSource.transaction((manager) => this.storage.run(manager, work));
  }
}
