import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase, urlFor } from '../support/database.js';
import { TEST_POSTGRES_URL } from '../support/env.js';
import { childEnv, CLI, type Run, runNode } from '../support/processes.js';

jest.setTimeout(60_000);

/** Runs the built CLI as `npm run cli` would, with only the given environment. */
const cli = (args: readonly string[], env: Record<string, string>): Promise<Run> => runNode(CLI, args, env, 30_000);



const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe('CLI against PostgreSQL', () => {
  let database: TestDatabase;
  let dataDir: string;
  let env: Record<string, string>;
  let sql: pg.Client;
  let api: TestApp;

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} does not exist: run \`npm run build\` first (\`npm test\` does).`);
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'hc-cli-'));
    env = { DATABASE_URL: database.url, DATA_DIR: dataDir };
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    // An API process on the same database, to check that CLI changes take effect at once.
    api = await startTestApp({ databaseUrl: database.url });
  });
  afterAll(async () => {
    await api?.close();
    await sql?.end();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function keyCount(): Promise<number> {
    const { rows } = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys');
    return rows[0]!.n;
  }

  it('`npm run --silent cli -- … --json`, as the README gives it, prints only the JSON on stdout (pipes into jq)', async () => {
    const run = await new Promise<Run>((resolvePromise, reject) => {
      const child = spawn('npm', ['run', '--silent', 'cli', '--', 'api-keys', 'create', '--name', 'npm', '--scopes', 'content:read', '--json'], {
        env: childEnv(env),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
    });
    expect(run.code).toBe(0);
    expect(Object.keys(JSON.parse(run.stdout) as object)).toEqual(['id', 'key', 'scopes']);
  }, 120_000);

  describe('api-keys create', () => {
    it('with --scopes and --json prints exactly { id, key, scopes } on stdout and nothing else', async () => {
      const run = await cli(['api-keys', 'create', '--name', 'ci', '--scopes', 'content:read,content:write', '--json'], env);
      expect(run.code).toBe(0);
      expect(run.stdout.endsWith('\n')).toBe(true);
      expect(run.stdout.trim().split('\n')).toHaveLength(1);
      const printed = JSON.parse(run.stdout) as Record<string, unknown>;
      expect(Object.keys(printed)).toEqual(['id', 'key', 'scopes']);
      expect(printed.id).toMatch(/^key_[0-9A-Za-z_-]+$/);
      expect(printed.key).toMatch(/^hck_[0-9A-Za-z]{40,}$/);
      expect(printed.scopes).toEqual(['content:read', 'content:write']);
      expect(run.stderr).toBe('');

      // The key works against the API at once, with its scopes.
      const key = printed.key as string;
      await api.http.get('/v1/sections').set(bearer(key)).expect(200);
      const { rows } = await sql.query('SELECT name, scopes FROM api_keys WHERE id = $1', [printed.id]);
      expect(rows).toEqual([{ name: 'ci', scopes: ['content:read', 'content:write'] }]);
    });

    it('with --legacy makes a key with null scopes (full access)', async () => {
      const run = await cli(['api-keys', 'create', '--name', 'old', '--legacy', '--json'], env);
      expect(run.code).toBe(0);
      const printed = JSON.parse(run.stdout) as { id: string; key: string; scopes: unknown };
      expect(printed.scopes).toBeNull();
      const { rows } = await sql.query('SELECT scopes FROM api_keys WHERE id = $1', [printed.id]);
      expect(rows).toEqual([{ scopes: null }]);
      await api.http.get('/v1/sections').set(bearer(printed.key)).expect(200);
    });

    it('without --json prints the key once with a reminder to store it', async () => {
      const run = await cli(['api-keys', 'create', '--name', 'human', '--scopes', 'content:read'], env);
      expect(run.code).toBe(0);
      const keys = run.stdout.match(/hck_[0-9A-Za-z]+/g);
      expect(keys).toHaveLength(1);
      expect(run.stdout).toContain('shown only this once');
    });

    it('refuses an unknown scope with exit code 2 and a message naming it, and creates nothing', async () => {
      const before = await keyCount();
      const run = await cli(['api-keys', 'create', '--name', 'bad', '--scopes', 'content:read,content:destroy', '--json'], env);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('content:destroy');
      expect(await keyCount()).toBe(before);
    });

    it.each([
      ['--scopes and --legacy together', ['--scopes', 'content:read', '--legacy']],
      ['neither --scopes nor --legacy', []],
    ])('refuses %s with exit code 2', async (_label, extra) => {
      const before = await keyCount();
      const run = await cli(['api-keys', 'create', '--name', 'bad', ...extra], env);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/--scopes|--legacy/);
      expect(await keyCount()).toBe(before);
    });
  });

  describe('api-keys create --expires-at', () => {
    it('stores the expiry, names the OS user as creator, and records the creation in the audit log', async () => {
      const expiresAt = new Date(Date.now() + 86_400_000);
      expiresAt.setUTCMilliseconds(0);
      const run = await cli(['api-keys', 'create', '--name', 'expiring', '--scopes', 'content:read', '--expires-at', expiresAt.toISOString(), '--json'], env);
      expect(run.code).toBe(0);
      const printed = JSON.parse(run.stdout) as { id: string; key: string };
      expect(Object.keys(printed)).toEqual(['id', 'key', 'scopes']);
      const { rows } = await sql.query<{ expires_at: Date; created_by: string }>('SELECT expires_at, created_by FROM api_keys WHERE id = $1', [printed.id]);
      expect(rows[0]!.expires_at.toISOString()).toBe(expiresAt.toISOString());
      expect(rows[0]!.created_by).toBe(`cli (${userInfo().username})`);
      await api.http.get('/v1/sections').set(bearer(printed.key)).expect(200);

      const { rows: audit } = await sql.query('SELECT actor_kind, actor_id, actor_label, ip, action, target_type, target_id, details FROM audit_log WHERE target_id = $1', [printed.id]);
      expect(audit).toEqual([
        {
          actor_kind: 'cli',
          actor_id: null,
          actor_label: `cli (${userInfo().username})`,
          ip: null,
          action: 'api_key.created',
          target_type: 'api_key',
          target_id: printed.id,
          details: { name: 'expiring', lastFour: printed.key.slice(-4), scopes: ['content:read'], expiresAt: expiresAt.toISOString() },
        },
      ]);

      const listed = JSON.parse((await cli(['api-keys', 'list', '--json'], env)).stdout) as Array<{ id: string; expiresAt: string | null }>;
      expect(listed.find((item) => item.id === printed.id)!.expiresAt).toBe(expiresAt.toISOString());
      const text = (await cli(['api-keys', 'list'], env)).stdout;
      expect(text.split('\n').find((line) => line.startsWith(printed.id))).toContain(`expires ${expiresAt.toISOString()}`);
    });

    it('without --expires-at prints that the key never expires', async () => {
      const run = await cli(['api-keys', 'create', '--name', 'forever', '--scopes', 'content:read'], env);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Expires: never');
    });

    it.each([
      ['a date in the past', '2020-01-01T00:00:00Z', /expires_at must be in the future/],
      ['something that is not a date', 'next tuesday', /--expires-at must be an ISO 8601 date/],
      ['an impossible date', '2027-02-30T00:00:00Z', /--expires-at must be an ISO 8601 date/],
    ])('refuses %s with exit code 2 and creates nothing', async (_label, value, message) => {
      const before = await keyCount();
      const run = await cli(['api-keys', 'create', '--name', 'bad', '--scopes', 'content:read', '--expires-at', value, '--json'], env);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
      expect(await keyCount()).toBe(before);
    });

    it('an expired key gets the same 401 as a revoked one, at once', async () => {
      const run = await cli(['api-keys', 'create', '--name', 'short', '--scopes', 'content:read', '--expires-at', new Date(Date.now() + 60_000).toISOString(), '--json'], env);
      const printed = JSON.parse(run.stdout) as { id: string; key: string };
      await api.http.get('/v1/sections').set(bearer(printed.key)).expect(200);
      await sql.query("UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1", [printed.id]);
      const res = await api.http.get('/v1/sections').set(bearer(printed.key));
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthorized');
      const text = (await cli(['api-keys', 'list'], env)).stdout;
      expect(text.split('\n').find((line) => line.startsWith(printed.id))).toContain('expired ');
    });
  });

  describe('api-keys list and revoke', () => {
    let created: { id: string; key: string; scopes: string[] };

    beforeAll(async () => {
      const run = await cli(['api-keys', 'create', '--name', 'listed', '--scopes', 'content:read', '--json'], env);
      expect(run.code).toBe(0);
      created = JSON.parse(run.stdout) as typeof created;
    });

    it('list --json shows lastFour but never the key or its hash', async () => {
      const run = await cli(['api-keys', 'list', '--json'], env);
      expect(run.code).toBe(0);
      const list = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
      const entry = list.find((item) => item.id === created.id);
      expect(entry).toEqual({
        id: created.id,
        name: 'listed',
        scopes: ['content:read'],
        lastFour: created.key.slice(-4),
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        lastUsedAt: null,
        revokedAt: null,
        expiresAt: null,
        createdBy: expect.stringMatching(/^cli \(.+\)$/),
      });
      expect(run.stdout).not.toContain(created.key);
      expect(run.stdout).not.toContain(created.key.slice(4));
      expect(run.stdout).not.toContain(sha256(created.key));
      for (const item of list) {
        expect(Object.keys(item).sort()).toEqual(['createdAt', 'createdBy', 'expiresAt', 'id', 'lastFour', 'lastUsedAt', 'name', 'revokedAt', 'scopes']);
      }
    });

    it('list without --json shows neither the key nor its hash either', async () => {
      const run = await cli(['api-keys', 'list'], env);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(created.id);
      expect(run.stdout).toContain(`…${created.key.slice(-4)}`);
      expect(run.stdout).not.toContain(created.key.slice(4));
      expect(run.stdout).not.toContain(sha256(created.key));
    });

    it('revoke makes the key get 401 at once', async () => {
      await api.http.get('/v1/sections').set(bearer(created.key)).expect(200);
      const run = await cli(['api-keys', 'revoke', created.id], env);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(created.id);
      const res = await api.http.get('/v1/sections').set(bearer(created.key));
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthorized');

      const listed = JSON.parse((await cli(['api-keys', 'list', '--json'], env)).stdout) as Array<{ id: string; revokedAt: string | null }>;
      expect(listed.find((item) => item.id === created.id)!.revokedAt).toEqual(expect.any(String));
    });

    it('revoke records one audit entry naming the OS user; revoking again records nothing more', async () => {
      const again = await cli(['api-keys', 'revoke', created.id], env);
      expect(again.code).toBe(0);
      const { rows } = await sql.query("SELECT actor_kind, actor_label, action FROM audit_log WHERE target_id = $1 AND action = 'api_key.revoked'", [created.id]);
      expect(rows).toEqual([{ actor_kind: 'cli', actor_label: `cli (${userInfo().username})`, action: 'api_key.revoked' }]);
    });

    it('revoke of an unknown key id exits with code 2 and a message', async () => {
      const run = await cli(['api-keys', 'revoke', 'key_doesnotexist000000000000'], env);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/key_doesnotexist000000000000.*not found/i);
    });
  });

  it('stores only the SHA-256 hash of a key: no column holds the plain key', async () => {
    const run = await cli(['api-keys', 'create', '--name', 'hashed', '--scopes', 'content:read', '--json'], env);
    const { id, key } = JSON.parse(run.stdout) as { id: string; key: string };
    const { rows } = await sql.query<{ row: Record<string, unknown> }>('SELECT to_jsonb(k) AS row FROM api_keys k WHERE id = $1', [id]);
    const row = rows[0]!.row;
    expect(row.key_hash).toBe(sha256(key));
    expect(row.last_four).toBe(key.slice(-4));
    // Not in any column of any key, in any form that contains the secret part.
    const { rows: all } = await sql.query<{ row: string }>('SELECT to_jsonb(k)::text AS row FROM api_keys k');
    for (const { row: text } of all) expect(text).not.toContain(key.slice(4));
  });

  it('migrate reports that the database is up to date', async () => {
    const run = await cli(['migrate'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Database is up to date.\n');
  });

  it('migrate applies the migrations to an empty database, once', async () => {
    const name = `hc_t_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name}`);
      const emptyEnv = { ...env, DATABASE_URL: urlFor(name) };
      const first = await cli(['migrate'], emptyEnv);
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/^Applied \d+ migration\(s\): /);
      const second = await cli(['migrate'], emptyEnv);
      expect(second.stdout).toBe('Database is up to date.\n');
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });

  it('stops with exit code 2 and names the variable when the configuration is invalid', async () => {
    const run = await cli(['api-keys', 'list'], { ...env, DATABASE_URL: 'mysql://nope' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('DATABASE_URL');
  });
});
