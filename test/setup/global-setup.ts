import { Redis } from 'ioredis';
import pg from 'pg';

// Runs outside Jest's module system: import packages only, no project files.
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks that PostgreSQL and Redis answer (a clear message instead of a hundred timeouts) and drops test
 * databases left by test processes that died. The migrated template is built lazily by the first test file.
 */
export default async function globalSetup(): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'hc\\_t\\_%'");
    for (const { datname } of rows) {
      const pid = Number(datname.split('_')[2]);
      if (Number.isInteger(pid) && isAlive(pid)) continue;
      await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => undefined);
    }
  } catch (error) {
    throw new Error(`Tests need PostgreSQL at ${POSTGRES_URL} (set TEST_POSTGRES_URL): ${(error as Error).message}`, { cause: error });
  } finally {
    await client.end().catch(() => undefined);
  }
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 3_000 });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(`Tests need Redis at ${REDIS_URL} (set TEST_REDIS_URL): ${(error as Error).message}`, { cause: error });
  } finally {
    redis.disconnect();
  }
}
