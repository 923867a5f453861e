import { Logger } from '@nestjs/common';
import type pg from 'pg';
import { DataSource, type EntityManager, MigrationExecutor } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { EmbeddedPostgres } from './embedded/embedded-postgres.js';
import { installTimestampParser } from './timestamp-parser.js';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export type Migration = Function;

export interface DatabaseOptions {
  readonly migrations: readonly Migration[];
  /** Run pending migrations on connect (the app and tests); the CLI's `migrate` runs them explicitly. */
  readonly migrate: boolean;
  /**
   * In embedded mode a process that only needs a client (CLI, worker) attaches to the process already
   * serving the data directory instead of failing.
   */
  readonly attachToRunningEmbedded: boolean;
}

const MIGRATION_LOCK_ID = 724_311_001;
const APPLICATION_NAME = 'help-center-api';

/**
 * The one TypeORM data source of the process, over PostgreSQL: the server at DATABASE_URL, or in embedded mode the
 * PostgreSQL server this process owns (or attaches to) under DATA_DIR. Same driver, SQL and migrations in both modes.
 *
 * Every connection carries a statement timeout and idle-in-transaction timeout, and waiting for a connection is
 * bounded, so no request or background loop can wait on the database for good.
 */
export class Database {
  private constructor(
    readonly dataSource: DataSource,
    private readonly embedded: EmbeddedPostgres | undefined,
    private readonly clientConfig: pg.ClientConfig,
  ) {}

  static async connect(config: AppConfig, options: DatabaseOptions): Promise<Database> {
    installTimestampParser();
    const logger = new Logger('Database');
    let embedded: EmbeddedPostgres | undefined;
    let client: pg.ClientConfig;
    if (config.database.url) {
      client = { connectionString: config.database.url };
    } else {
      embedded = new EmbeddedPostgres({
        dataDir: config.dataDir,
        // Room over this pool for an attached worker's pool, CLI runs and LISTEN connections.
        maxConnections: Math.max(50, config.database.poolSize * 3 + 20),
        osUser: config.database.embeddedOsUser,
        log: (message) => logger.log(message),
        onUnexpectedExit: (message) => {
          logger.error(`${message}. Shutting down.`);
          // A failure, however the graceful shutdown ends: a supervisor sees a non-zero exit and restarts the service.
          process.exitCode = 1;
          process.kill(process.pid, 'SIGTERM');
        },
      });
      const socket = await embedded.start({ attach: options.attachToRunningEmbedded });
      client = { host: socket.host, port: socket.port, user: socket.user, database: socket.database };
    }
    const sessionSettings = {
      statement_timeout: config.database.statementTimeoutMs,
      idle_in_transaction_session_timeout: Math.max(config.database.statementTimeoutMs * 2, 60_000),
      connectionTimeoutMillis: config.database.connectTimeoutMs,
      keepAlive: true,
      application_name: APPLICATION_NAME,
      // No JIT: every statement here is a short OLTP read or write, and PostgreSQL's JIT (on by default where the
      // server is built with LLVM) compiled the help center's article statement on every execution, 60-80 ms of a
      // sub-millisecond query, because its per-row subqueries are costed above jit_above_cost.
      options: '-c jit=off',
    };
    const connection =
      'connectionString' in client && client.connectionString
        ? { url: client.connectionString }
        : { host: client.host as string, port: client.port, username: client.user, database: client.database };
    const dataSource = new DataSource({
      type: 'postgres',
      ...connection,
      migrations: options.migrations as Migration[],
      migrationsTableName: 'migrations',
      migrationsTransactionMode: 'each',
      synchronize: false,
      migrationsRun: false,
      poolSize: config.database.poolSize,
      extra: sessionSettings,
      logging: false,
    });
    try {
      await dataSource.initialize();
      if (options.migrate) await runMigrations(dataSource);
    } catch (error) {
      if (dataSource.isInitialized) await dataSource.destroy().catch(() => undefined);
      await embedded?.stop();
      throw error;
    }
    return new Database(dataSource, embedded, { ...client, ...sessionSettings });
  }

  /**
   * Settings for a connection of its own outside the pool (LISTEN), with the pool's timeouts. In embedded mode
   * they point at the socket of the server this process owns or attached to.
   */
  connectionConfig(applicationName: string): pg.ClientConfig {
    return { ...this.clientConfig, application_name: `${APPLICATION_NAME}:${applicationName}` };
  }

  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** The driver's connection pool (node-postgres), for plain queries outside a transaction. */
  get pool(): pg.Pool {
    return (this.dataSource.driver as unknown as { master: pg.Pool }).master;
  }

  async close(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.embedded?.stop();
  }
}

/**
 * Applies pending migrations under an advisory lock, so several processes starting at once
 * apply each migration exactly once. Returns the names applied. Migrations run on the locking session, without
 * the pool's statement timeout (an index build on a large table may take longer).
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SET statement_timeout = 0');
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    const applied = await executor.executePendingMigrations();
    return applied.map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await runner.query('RESET statement_timeout').catch(() => undefined);
    await runner.release();
  }
}
