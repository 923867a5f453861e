import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { runMigrations } from '#core';
import { MIGRATIONS } from '#migrations';
import { TEST_POSTGRES_URL } from './env.js';

/** The migrated template database every test database is cloned from; named after the migrations it holds. */
export function templateName(): string {
  // The migrations' source, so a changed migration gets a new template.
  const digest = createHash('sha256').update(MIGRATIONS.map((m) => m.toString()).join('\n')).digest('hex').slice(0, 12);
  return `hc_template_${digest}`;
}

export function urlFor(database: string): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates the template database once (under an advisory lock, so parallel runs agree). */
export async function ensureTemplate(): Promise<string> {
  const name = templateName();
  await withAdmin(async (admin) => {
    await admin.query('SELECT pg_advisory_lock(724311999)');
    try {
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (exists.rowCount) return;
      const building = `${name}_build`;
      await admin.query(`DROP DATABASE IF EXISTS ${building}`);
      await admin.query(`CREATE DATABASE ${building}`);
      const dataSource = new DataSource({ type: 'postgres', url: urlFor(building), migrations: [...MIGRATIONS] as never });
      await dataSource.initialize();
      await runMigrations(dataSource);
      await dataSource.destroy();
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock(724311999)');
    }
  });
  return name;
}

export interface TestDatabase {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one test file: cloned from the template in a few milliseconds. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = await ensureTemplate();
  const name = `hc_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  return {
    name,
    url: urlFor(name),
    drop: () => withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
