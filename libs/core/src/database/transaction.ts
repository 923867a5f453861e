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
 * the pool's otherwise.
 */
interface TransactionScope {
  readonly manager: EntityManager;
  readonly afterCommit: Array<() => void>;
}

export class TransactionHost extends UnitOfWork {
  private readonly storage = new AsyncLocalStorage<TransactionScope>();

  constructor(private readonly database: Database) {
    super();
  }

  get manager(): EntityManager {
    return this.storage.getStore()?.manager ?? this.database.manager;
  }

  get inTransaction(): boolean {
    return this.storage.getStore() !== undefined;
  }

  /**
   * Plain SQL returning rows, in the current transaction if there is one. Outside a transaction it goes to the
   * driver's pool directly: reads on the request path skip the ORM's query-runner bookkeeping.
   */
  async query<R>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
    const manager = this.storage.getStore()?.manager;
    if (manager) {
      // Structured: TypeORM otherwise answers UPDATE/DELETE … RETURNING with [rows, count] instead of the rows.
      if (manager.queryRunner) return (await manager.queryRunner.query(sql, [...params], true)).records as R[];
      return (await manager.query(sql, [...params])) as R[];
    }
    const result = await this.database.pool.query(sql, [...params]);
    return result.rows as R[];
  }

  /**
   * `query` as a named prepared statement outside a transaction: parsed and planned once per pooled connection the
   * first time `name` runs there, then only bound and executed. For hot reads whose planning costs more than their
   * execution. One name per statement text, for the life of the process. Inside a transaction it is `query`.
   */
  async prepared<R>(name: string, sql: string, params: readonly unknown[] = []): Promise<R[]> {
    if (this.inTransaction) return this.query<R>(sql, params);
    const result = await this.database.pool.query({ name, text: sql, values: [...params] });
    return result.rows as R[];
  }

  /** Runs `work` outside the current transaction, if any (e.g. a batch shared by many callers). */
  outside<T>(work: () => T): T {
    return this.storage.exit(work);
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction) return work();
    const afterCommit: Array<() => void> = [];
    const result = await this.database.dataSource.transaction((manager) => this.storage.run({ manager, afterCommit }, work));
    for (const hook of afterCommit) {
      try {
        hook();
      } catch {
        // A hook is a wake-up call (e.g. "events are waiting"); the periodic sweeps cover one that fails.
      }
    }
    return result;
  }

  /** Runs `hook` once the current transaction has committed (at once outside a transaction); never after a rollback. */
  afterCommit(hook: () => void): void {
    const scope = this.storage.getStore();
    if (scope) scope.afterCommit.push(hook);
    else hook();
  }
}
