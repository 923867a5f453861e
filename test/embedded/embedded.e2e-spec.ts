import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { SCOPES } from '#core';
import { PNG } from '../support/image-server.js';
import { CLI, MAIN, runNode } from '../support/processes.js';
import { ServerProcess } from '../support/server-process.js';
import { startReceiver } from '../support/webhook-receiver.js';
import { errorBody } from '../support/errors.js';

/**
 * Smoke suite of `npm start` on embedded defaults: the REAL built process (its PostgreSQL server under DATA_DIR, jobs in
 * process), driven over HTTP and by the built CLI. `npm test` builds dist/ first.
 */

jest.setTimeout(120_000);

const cli = (args: readonly string[], dataDir: string) => runNode(CLI, args, { DATA_DIR: dataDir });
const KEY = /hck_[0-9A-Za-z]{40,}/g;

describe('embedded mode: npm start with no DATABASE_URL or REDIS_URL', () => {
  let dataDir: string;
  let server: ServerProcess;
  const started: ServerProcess[] = [];
  let initialKey: string;
  let cliKey: { id: string; key: string };
  let createdSectionId: string;

  beforeAll(async () => {
    if (!existsSync(MAIN) || !existsSync(CLI)) {
      throw new Error(`${MAIN} or ${CLI} does not exist: run \`npm run build\` first (\`npm test\` does).`);
    }
    dataDir = mkdtempSync(join(tmpdir(), 'hc-embedded-'));
    server = ServerProcess.spawn(dataDir);
    started.push(server);
    await server.listening();
  });
  afterAll(async () => {
    for (const proc of started) await proc.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the URL and, on first start, a full-access hck_ key (only in the banner, never in a log line)', async () => {
    const keys = [...new Set(server.stdout.match(KEY) ?? [])];
    expect(keys).toHaveLength(1);
    initialKey = keys[0]!;
    expect(server.stdout).toContain('First start: created a full-access API key');
    for (const line of (server.stdout + server.stderr).split('\n')) {
      if (line.startsWith('{')) expect(line).not.toContain(initialKey);
    }
    expect(server.stderr).not.toContain(initialKey);
  });

  it('prints, beside the key, a one-time setup link that opens the first admin\'s form on this server', async () => {
    const link = /First start: create the first admin at (\S+)/.exec(server.stdout)?.[1];
    expect(link).toMatch(/\/settings\/setup\?token=[A-Za-z0-9_-]{20,}$/);
    const url = new URL(link!);
    const page = await server.fetch(`${url.pathname}${url.search}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await page.text()).toContain('name="password"');
    expect((await server.fetch('/settings/setup?token=made-up')).status).toBeGreaterThanOrEqual(400);
  });

  it('the key works against GET /v1/sections, which lists the default section "General"', async () => {
    const res = await server.fetch('/v1/sections', initialKey);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: Array<{ name: string; isDefault: boolean }> };
    expect(body.results).toEqual([expect.objectContaining({ name: 'General', isDefault: true })]);
    expect((await server.fetch('/v1/sections')).status).toBe(401);
  });

  it('the key has full access (it can write)', async () => {
    const res = await server.fetch('/v1/sections', initialKey, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Survives restarts' }),
    });
    expect(res.status).toBe(201);
    createdSectionId = ((await res.json()) as { id: string }).id;
  });

  it('stores an image from an article body on local disk and delivers the signed article.created webhook', async () => {
    const receiver = await startReceiver();
    try {
      const json = { 'Content-Type': 'application/json' };
      const hook = await server.fetch('/v1/webhooks', initialKey, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ url: receiver.url('/hook'), events: ['article.created'] }),
      });
      expect(hook.status).toBe(201);
      const { secret } = (await hook.json()) as { secret: string };
      const sections = (await (await server.fetch('/v1/sections', initialKey)).json()) as { results: Array<{ id: string }> };
      const created = await server.fetch('/v1/articles', initialKey, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ title: 'Embedded image', sectionId: sections.results[0]!.id, markdown: `![logo](data:image/png;base64,${PNG.toString('base64')})` }),
      });
      expect(created.status).toBe(201);
      const article = (await created.json()) as { id: string; contentHtml: string };
      const src = /src="([^"]+)"/.exec(article.contentHtml)![1]!;
      const image = await server.fetch(new URL(src).pathname);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);

      const delivery = await receiver.waitFor((r) => r.json<{ data: { id: string } }>().data.id === article.id, 30_000);
      expect(new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>)).toMatchObject({ type: 'article.created' });
    } finally {
      await receiver.close();
    }
  });

  it('serves the browsable reference at /docs, the OpenAPI document, and ready probes', async () => {
    const docs = await server.fetch('/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/text\/html/);
    expect(await docs.text()).toMatch(/<html/i);
    const openapi = await server.fetch('/v1/openapi.json');
    expect(openapi.status).toBe(200);
    expect(((await openapi.json()) as { openapi: string }).openapi).toMatch(/^3\.1/);
    const ready = await server.fetch('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', queue: 'ok' } });
  });

  it('a second API process on the same DATA_DIR exits non-zero, saying the database is in use', async () => {
    const second = ServerProcess.spawn(dataDir);
    started.push(second);
    const exit = await second.exited;
    expect(exit.code).not.toBe(0);
    expect(exit.code).not.toBeNull();
    expect(second.stderr).toMatch(/already served by another process/);
    expect(second.stderr).toContain(`pid ${server.child.pid}`);
    expect(second.stdout).not.toMatch(KEY);
    // The first one is unharmed.
    expect((await server.fetch('/v1/sections', initialKey)).status).toBe(200);
  });

  it('the CLI attaches to the running server: a key it creates works at once', async () => {
    const run = await cli(['api-keys', 'create', '--name', 'x', '--scopes', 'content:read', '--json'], dataDir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    cliKey = JSON.parse(run.stdout) as { id: string; key: string };
    expect((await server.fetch('/v1/sections', cliKey.key)).status).toBe(200);
    // Only content:read.
    const write = await server.fetch('/v1/sections', cliKey.key, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"name":"no"}' });
    expect(write.status).toBe(403);
  });

  it('the CLI lists the keys; the initial one has every scope', async () => {
    const run = await cli(['api-keys', 'list', '--json'], dataDir);
    expect(run.code).toBe(0);
    const list = JSON.parse(run.stdout) as Array<{ id: string; scopes: string[] | null; lastFour: string }>;
    expect(list).toHaveLength(2);
    const initial = list.find((item) => item.lastFour === initialKey.slice(-4));
    expect(initial?.scopes?.slice().sort()).toEqual([...SCOPES].sort());
    expect(run.stdout).not.toContain(initialKey);
  });

  it('api-keys revoke makes the key 401 at once', async () => {
    const run = await cli(['api-keys', 'revoke', cliKey.id], dataDir);
    expect(run.code).toBe(0);
    const res = await server.fetch('/v1/sections', cliKey.key);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(errorBody('unauthorized'));
  });

  it('after SIGTERM and a new start: no new key is printed, the old key still works, data is kept', async () => {
    const exit = await server.stop();
    // Nest re-raises the signal after a graceful shutdown; either way it must not be a crash.
    expect(exit.code === 0 || exit.signal === 'SIGTERM').toBe(true);
    expect(server.stderr).not.toMatch(/Error|Failed/);
    expect(existsSync(join(dataDir, 'postgres.json'))).toBe(false);

    server = ServerProcess.spawn(dataDir);
    started.push(server);
    await server.listening();
    expect(server.stdout).not.toMatch(KEY);
    expect(server.stdout).not.toContain('First start');

    const res = await server.fetch('/v1/sections', initialKey);
    expect(res.status).toBe(200);
    const names = ((await res.json()) as { results: Array<{ id: string }> }).results.map((section) => section.id);
    expect(names).toContain(createdSectionId);
    expect((await server.fetch('/v1/sections', cliKey.key)).status).toBe(401);
  });

  it('after a crash (SIGKILL) the next start takes the data directory over', async () => {
    server.child.kill('SIGKILL');
    expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
    // The lock and the server info of the dead process are still there.
    expect(existsSync(join(dataDir, 'postgres.json'))).toBe(true);

    server = ServerProcess.spawn(dataDir);
    started.push(server);
    await server.listening();
    expect(server.stdout).not.toMatch(KEY);
    expect((await server.fetch('/v1/sections', initialKey)).status).toBe(200);
    // And the CLI attaches to the new owner.
    const run = await cli(['api-keys', 'list', '--json'], dataDir);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toHaveLength(2);
  });
});
