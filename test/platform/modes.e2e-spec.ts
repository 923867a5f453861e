import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { ListApiKeysUseCase } from '#gateway';
import { TransactionHost } from '#core';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { TEST_REDIS_URL } from '../support/env.js';
import { polling } from '../support/eventually.js';
import { CLI, runNode, startWorker, WORKER } from '../support/processes.js';

/**
 * The same core flow on every way the service runs: PostgreSQL with jobs in process, PostgreSQL with Redis
 * (the API process plus a separate, real worker process), and embedded PostgreSQL. Keys come from the built CLI.
 */

jest.setTimeout(120_000);




const eventually = polling({ timeoutMs: 30_000, intervalMs: 50 });

interface Mode {
  readonly mode: string;
  /** Starts the API (and whatever else the mode runs); returns the environment the CLI needs. */
  start(): Promise<{ app: TestApp; cliEnv: Record<string, string>; stop(): Promise<void> }>;
}

const MODES: Mode[] = [
  {
    mode: 'PostgreSQL, jobs in process',
    async start() {
      const app = await startTestApp();
      return { app, cliEnv: { DATABASE_URL: app.databaseUrl!, DATA_DIR: app.config.dataDir }, stop: () => app.close() };
    },
  },
  {
    mode: 'PostgreSQL + Redis, API process and a separate worker process',
    async start() {
      // The API does not run jobs here (`npm run start:api`): only the worker can record key usage.
      const app = await startTestApp({ redis: true, runsJobs: false });
      const env = { DATABASE_URL: app.databaseUrl!, DATA_DIR: app.config.dataDir, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: app.redisPrefix!, LOG_LEVEL: 'warn' };
      const worker = startWorker(env);
      return {
        app,
        cliEnv: env,
        async stop() {
          await worker.stop();
          await app.close();
          worker.assertNoErrors();
        },
      };
    },
  },
  {
    mode: 'embedded PostgreSQL, jobs in process',
    async start() {
      const app = await startTestApp({ embedded: true });
      // The CLI attaches to the embedded server this app runs under its DATA_DIR.
      return { app, cliEnv: { DATA_DIR: app.config.dataDir }, stop: () => app.close() };
    },
  },
];

describe.each(MODES)('core flow: $mode', (mode) => {
  let app: TestApp;
  let cliEnv: Record<string, string>;
  let stop: () => Promise<void>;
  let key: { id: string; key: string };

  beforeAll(async () => {
    if (!existsSync(CLI) || !existsSync(WORKER)) throw new Error(`${CLI} or ${WORKER} does not exist: run \`npm run build\` first (\`npm test\` does).`);
    ({ app, cliEnv, stop } = await mode.start());
  });
  afterAll(() => stop?.());

  async function page(path: string, cursor: string | null): Promise<{ results: Array<{ id: string }>; has_more: boolean; next_cursor: string | null }> {
    const query = cursor ? `page_size=1&start_cursor=${encodeURIComponent(cursor)}` : 'page_size=1';
    const res = await app.http.get(`${path}?${query}`).set(bearer(key.key));
    expect(res.status).toBe(200);
    return res.body;
  }

  /** Follows next_cursor from the first page to the last, one item per page. */
  async function walk(path: string): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 50; pages++) {
      const current = await page(path, cursor);
      expect(current.results.length).toBeLessThanOrEqual(1);
      ids.push(...current.results.map((item) => item.id));
      expect(current.has_more).toBe(current.next_cursor !== null);
      if (!current.next_cursor) return ids;
      cursor = current.next_cursor;
    }
    throw new Error(`${path}: more than 50 pages`);
  }

  it('creates a key with the CLI', async () => {
    const created = await runNode(CLI, ['api-keys', 'create', '--name', 'modes', '--scopes', 'content:read,content:write', '--json'], cliEnv);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    key = JSON.parse(created.stdout) as { id: string; key: string };
    expect(key.key).toMatch(/^hck_/);
  });

  it('creates sections and collections, and lists them page by page', async () => {
    const sections: string[] = [];
    for (const name of ['Billing', 'Accounts']) {
      const res = await app.http.post('/v1/sections').set(bearer(key.key)).send({ name });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ id: expect.stringMatching(/^sect_/), name, isDefault: false });
      sections.push(res.body.id);
    }
    const collections: string[] = [];
    for (const title of ['Invoices', 'Refunds', 'Passwords']) {
      const res = await app.http.post('/v1/collections').set(bearer(key.key)).send({ title, sectionId: sections[0] });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ id: expect.stringMatching(/^col_/), title, sectionId: sections[0], parentCollectionId: null });
      collections.push(res.body.id);
    }

    const listedSections = await walk('/v1/sections');
    expect(listedSections).toHaveLength(3);
    expect(listedSections.slice(1)).toEqual(sections); // after the default "General", by position
    const general = await app.http.get(`/v1/sections/${listedSections[0]}`).set(bearer(key.key)).expect(200);
    expect(general.body).toMatchObject({ name: 'General', isDefault: true });

    expect(await walk('/v1/collections')).toEqual([...collections].reverse()); // newest first
  });

  it('writes, publishes, revises and finds an article', async () => {
    const admin = await app.key(null);
    const sectionId = (await walk('/v1/sections'))[0]!;
    const created = await app.http
      .post('/v1/articles')
      .set(bearer(admin))
      .send({ title: 'Reset your password', sectionId, markdown: 'Open **settings** and choose reset.' })
      .expect(201);
    const id = created.body.id as string;
    await app.http.post(`/v1/articles/${id}/publish`).set(bearer(admin)).expect(200);
    await app.http.patch(`/v1/articles/${id}`).set(bearer(admin)).send({ markdown: 'Open **settings**, then security, and choose reset.' }).expect(200);
    await app.http.post(`/v1/articles/${id}/publish`).set(bearer(admin)).expect(200);
    // Versions: 1 created, 2 published, 3 edited, 4 published.
    const diff = await app.http.get(`/v1/articles/${id}/revisions/4/diff?against=1`).set(bearer(admin)).expect(200);
    expect(diff.body).toMatchObject({ changed: true, addedLines: 1, removedLines: 1, from: { version: 1 }, to: { version: 4 } });
    const found = await app.http.get('/v1/articles/search?query=passwords').set(bearer(admin)).expect(200);
    expect(found.body.results.map((r: { id: string }) => r.id)).toEqual([id]);
    const markdown = await app.http.get(`/v1/articles/${id}?format=markdown`).set(bearer(admin)).expect(200);
    expect(markdown.body.contentMarkdown).toContain('security');
  });

  it("runs every pool session with the service's settings: JIT off, the statement timeout", async () => {
    const sessions = await Promise.all(
      Array.from({ length: 4 }, () => app.app.get(TransactionHost).query<{ jit: string; timeout: string }>("SELECT current_setting('jit') AS jit, current_setting('statement_timeout') AS timeout")),
    );
    for (const [row] of sessions) expect(row).toEqual({ jit: 'off', timeout: '30s' });
  });

  it('is ready', async () => {
    const res = await app.http.get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'ok', queue: 'ok' } });
  });

  it("records the key's lastUsedAt through the job", async () => {
    await eventually(async () => {
      const keys = await app.app.get(ListApiKeysUseCase).execute();
      return keys.find((k) => k.id === key.id)?.props.lastUsedAt instanceof Date;
    }, 'lastUsedAt to be recorded');
    // Also as the CLI reports it.
    const listed = await runNode(CLI, ['api-keys', 'list', '--json'], cliEnv);
    expect(listed.code).toBe(0);
    const entry = (JSON.parse(listed.stdout) as Array<{ id: string; lastUsedAt: string | null }>).find((k) => k.id === key.id);
    expect(entry?.lastUsedAt).toEqual(expect.any(String));
  });
});
