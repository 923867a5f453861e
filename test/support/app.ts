import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from 'pino';
import supertest from 'supertest';
import { AppConfig, type AuditActor, createLogger, type Scope, SCOPES } from '#core';
import { CreateApiKeyUseCase } from '#gateway';
import { createApiApp } from '../../apps/api/src/bootstrap.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { TEST_APP_SECRET } from './env.js';
import { createRedisNamespace } from './redis.js';

/** The audit actor of keys a test mints or revokes directly through the use cases (as the CLI would). */
export const TEST_ACTOR: AuditActor = { kind: 'cli', id: null, label: 'cli (test)', ip: null };

export interface TestAppOptions {
  /** Jobs and rate-limit counters on Redis (under a prefix of this test file's own). */
  readonly redis?: boolean;
  /** Embedded mode (the PostgreSQL server the service owns) under a temporary data directory instead of a test database. */
  readonly embedded?: boolean;
  /** Share another app's database (two API processes). */
  readonly databaseUrl?: string;
  /** Share another app's Redis namespace. */
  readonly redisPrefix?: string;
  readonly runsJobs?: boolean;
  readonly env?: Record<string, string>;
  /** Where the app logs (silent when omitted). */
  readonly logger?: Logger;
  /** The port to listen on (a random one when omitted): for a PUBLIC_URL that must name the server itself. */
  readonly port?: number;
}

export interface TestApp {
  readonly app: NestExpressApplication;
  readonly config: AppConfig;
  readonly url: string;
  readonly databaseUrl: string | null;
  readonly redisPrefix: string | null;
  /** supertest bound to the running server. */
  readonly http: ReturnType<typeof supertest>;
  /** Mints an API key; null scopes = legacy full access. */
  key(scopes?: readonly Scope[] | null): Promise<string>;
  close(): Promise<void>;
}

/** Starts the real API (same bootstrap as `npm start`) on a random port against real backing services. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hc-test-'));
  let database: TestDatabase | undefined;
  if (!options.embedded && !options.databaseUrl) database = await createTestDatabase();
  const namespace = options.redis && !options.redisPrefix ? createRedisNamespace() : undefined;
  const redisPrefix = options.redisPrefix ?? namespace?.prefix ?? null;
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_SECRET: TEST_APP_SECRET,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://help.test',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...(redisPrefix ? { REDIS_URL: namespace?.url ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_PREFIX: redisPrefix } : {}),
    ...options.env,
  };
  const config = AppConfig.fromEnv(env);
  const app = await createApiApp(config, { runsJobs: options.runsJobs ?? true, logger: options.logger ?? createLogger('silent') });
  await app.listen(options.port ?? 0, '127.0.0.1');
  const url = await app.getUrl();
  const http = supertest(app.getHttpServer());
  return {
    app,
    config,
    url: url.replace('[::1]', '127.0.0.1'),
    databaseUrl: database?.url ?? options.databaseUrl ?? null,
    redisPrefix,
    http,
    async key(scopes: readonly Scope[] | null = [...SCOPES]) {
      const created = await app.get(CreateApiKeyUseCase).execute({ name: 'test', scopes }, TEST_ACTOR);
      return created.plain;
    },
    async close() {
      await app.close();
      await database?.drop();
      await namespace?.cleanup();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function bearer(key: string): { Authorization: string } {
  return { Authorization: `Bearer ${key}` };
}
