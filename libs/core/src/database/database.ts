import type pg from 'pg';
import { DataSource, type EntityManager, type EntitySchema, type MixedList } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { EmbeddedPostgres } from './embedded-postgres.js';
import { SnakeNamingStrategy } from './snake-naming.strategy.js';
import { installTimestampParser } from './timestamp-parser.js';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export type OrmEntity = Function | EntitySchema;
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export type Migration = Function;

export interface DatabaseOptions {
  readonly entities: readonly OrmEntity[];
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

/**
 * The one TypeORM data source of the process, over PostgreSQL (DATABASE_URL) or the embedded PGlite server.
 * Same driver, SQL and migrations in both modes.
 */
export class Database {
  private constructor(
    readonly dataSource: DataSource,
    private readonly embedded: EmbeddedPostgres | undefined,
  ) {}

  static async connect(config: AppConfig, options: DatabaseOptions): Promise<Database> {
    installTimestampParser();
    let embedded: EmbeddedPostgres | undefined;
    let connection: { url: string } | { host: string; port: number; username: string; database: string };
    if (config.database.url) {
      connection = { url: config.database.url };
    } else {
      // A few spare connections over the pool: CLI and worker processes may attach to this server.
      embedded = new EmbeddedPostgres(config.dataDir, config.database.poolSize + 10);
      const socket = await embedded.start({ attach: options.attachToRunningEmbedded });
      connection = { host: socket.host, port: socket.port, username: socket.user, database: socket.database };
    }
    const dataSource = new DataSource({
      type: 'postgres',
      ...connection,
      entities: options.entities as MixedList<OrmEntity>,
      migrations: options.migrations as Migration[],
      migrationsTableName: 'migrations',
      migrationsTransactionMode: 'each',
      synchronize: false,
      migrationsRun: false,
      namingStrategy: new SnakeNamingStrategy(),
      poolSize: config.database.poolSize,
      extra: { connectionTimeoutMillis: 5_000, application_name: 'help-center-api' },
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
    return new Database(dataSource, embedded);
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
 * apply each migration exactly once. Returns the names applied.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await runner.release();
  }
}
