import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamicModule, Type } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import pg from 'pg';
import { AppConfig, CoreModule, createLogger, PinoNestLogger } from '#core';
import { MIGRATIONS } from '#migrations';
import { createTestDatabase, type TestDatabase } from './database.js';
import { TEST_APP_SECRET } from './env.js';

export interface UseCaseModuleOptions {
  /** Settings on top of the defaults (a test database, a temporary DATA_DIR, silent logs, PUBLIC_URL http://help.test). */
  readonly env?: Record<string, string>;
  /** Providers replaced by stand-ins, e.g. a job queue or a webhook sender that only record what they are asked. */
  readonly overrides?: ReadonlyArray<{ readonly provide: unknown; readonly useValue: unknown }>;
}

export interface UseCaseModule {
  readonly module: TestingModule;
  readonly config: AppConfig;
  readonly database: TestDatabase;
  /** A client of its own on the test database, to look at (or arrange) what the use cases leave behind. */
  readonly db: pg.Client;
  /** A provider of the module (a use case, a port), by its class. */
  get<T>(type: abstract new (...args: never[]) => T): T;
  /** The rows of one query on `db`. */
  rows<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Closes the module and the client, drops the database and removes the data directory. */
  close(): Promise<void>;
}

/**
 * The lib modules under test below HTTP, with CoreModule (migrations applied, jobs not run by this process) against
 * a PostgreSQL database of the test file's own: what the use-case suites (`*-use-cases.int-spec.ts`) build once.
 */
export async function createUseCaseModule(imports: ReadonlyArray<Type | DynamicModule>, options: UseCaseModuleOptions = {}): Promise<UseCaseModule> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'hc-use-cases-'));
  let module: TestingModule | undefined;
  let db: pg.Client | undefined;
  const close = async () => {
    await db?.end();
    await module?.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const config = AppConfig.fromEnv({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      APP_SECRET: TEST_APP_SECRET,
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'http://help.test',
      ...options.env,
    });
    let builder = Test.createTestingModule({ imports: [CoreModule.forRoot(config, { migrations: MIGRATIONS, migrate: true, runsJobs: false }), ...imports] });
    for (const { provide, useValue } of options.overrides ?? []) builder = builder.overrideProvider(provide).useValue(useValue);
    module = await builder.setLogger(new PinoNestLogger(createLogger('silent'))).compile();
    await module.init();
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    const [ready, client] = [module, db];
    return {
      module: ready,
      config,
      database,
      db: client,
      get: <T>(type: abstract new (...args: never[]) => T): T => ready.get<T>(type as never, { strict: false }),
      rows: async <T>(sql: string, params: unknown[] = []): Promise<T[]> => (await client.query(sql, params)).rows as T[],
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
