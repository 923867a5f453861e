import { spawn } from 'node:child_process';
import { createHash, scryptSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { childEnv, CLI, type Run } from '../support/processes.js';
import { ServerProcess } from '../support/server-process.js';

// `npm run cli -- admins …` (the built CLI) against PostgreSQL, and the setup link the API prints at start-up.

jest.setTimeout(120_000);

/** Runs the built CLI with only `env`, writing `input` (if any) to its standard input. */
function cli(args: readonly string[], env: Record<string, string>, input?: string): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: childEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cli ${args.join(' ')} did not finish within 60 s; stderr: ${stderr}`));
    }, 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
    child.stdin.end(input ?? '');
  });
}

/** Does `password` match a stored `scrypt$N$r$p$salt$hash`? */
function matches(stored: string, password: string): boolean {
  const [, N, r, p, salt, hash] = stored.split('$');
  const key = scryptSync(password, Buffer.from(salt!, 'base64'), 64, { N: Number(N), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 });
  return key.equals(Buffer.from(hash!, 'base64'));
}

const PASSWORD = 'violet harbour lantern 42';
const ADMIN_FIELDS = ['createdAt', 'email', 'id', 'name', 'updatedAt'];

describe('CLI: admins', () => {
  let database: TestDatabase;
  let dataDir: string;
  let env: Record<string, string>;
  let sql: pg.Client;

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} does not exist: run \`npm run build\` first (\`npm test\` does).`);
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'hc-admins-cli-'));
    env = { DATABASE_URL: database.url, DATA_DIR: dataDir, PUBLIC_URL: 'https://help.example.com' };
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const stored = async (email: string) => (await sql.query<{ id: string; password_hash: string }>('SELECT id, password_hash FROM admins WHERE email = $1', [email])).rows[0];

  async function addSession(adminId: string, id: string): Promise<void> {
    const now = new Date();
    await sql.query(
      `INSERT INTO admin_sessions (id, admin_id, token_hash, csrf_token, created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, 'csrf', $4, $4, $5)`,
      [id, adminId, createHash('sha256').update(id).digest('hex'), now, new Date(now.getTime() + 3_600_000)],
    );
  }

  it('list with no admin says how to create one', async () => {
    const run = await cli(['admins', 'list'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('No admins');
    expect((await cli(['admins', 'list', '--json'], env)).stdout).toBe('[]\n');
  });

  it('create without a password generates a strong one and prints it once; the audit log names the command line and the OS user', async () => {
    const run = await cli(['admins', 'create', '--email', 'Ada@Example.com', '--name', 'Ada Lovelace'], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const printed = run.stdout.match(/^ {2}([A-Za-z0-9_-]{24})$/m)?.[1];
    expect(printed).toBeDefined();
    expect(run.stdout.split(printed!)).toHaveLength(2);
    expect(run.stdout).toContain('shown only this once');
    expect(run.stdout).toContain('https://help.example.com/settings/sign-in');
    const admin = (await stored('ada@example.com'))!;
    expect(admin.password_hash).toMatch(/^scrypt\$32768\$8\$3\$/);
    expect(matches(admin.password_hash, printed!)).toBe(true);
    const { rows } = await sql.query('SELECT actor_kind, actor_id, actor_label, ip, target_id, details FROM audit_log WHERE action = $1', ['admin.created']);
    expect(rows).toEqual([
      { actor_kind: 'cli', actor_id: null, actor_label: `cli (${userInfo().username})`, ip: null, target_id: admin.id, details: { email: 'ada@example.com', name: 'Ada Lovelace' } },
    ]);
  });

  it('create --password-stdin takes the password from standard input (one trailing line break dropped) and prints none', async () => {
    const run = await cli(['admins', 'create', '--email', 'grace@example.com', '--name', 'Grace', '--password-stdin', '--json'], env, `${PASSWORD}\n`);
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(printed).sort()).toEqual([...ADMIN_FIELDS, 'password'].sort());
    expect(printed).toMatchObject({ id: expect.stringMatching(/^adm_/), email: 'grace@example.com', name: 'Grace', password: null });
    expect(matches((await stored('grace@example.com'))!.password_hash, PASSWORD)).toBe(true);
  });

  it.each([
    ['a common password', ['--email', 'c@example.com', '--name', 'C', '--password-stdin'], 'password1234', /password: .*most common/],
    ['a short password', ['--email', 'c@example.com', '--name', 'C', '--password-stdin'], 'short', /password: Use at least 12 characters/],
    ['empty standard input', ['--email', 'c@example.com', '--name', 'C', '--password-stdin'], '', /standard input was empty/],
    ['a bad email', ['--email', 'not-an-email', '--name', 'C'], undefined, /--email: /],
    ['an email in use (any case)', ['--email', 'ADA@example.com', '--name', 'Again'], undefined, /already exists/],
  ])('create refuses %s with exit code 2 and creates nothing', async (_label, args, input, message) => {
    const before = (await sql.query('SELECT id FROM admins')).rowCount;
    const run = await cli(['admins', 'create', ...args], env, input);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect((await sql.query('SELECT id FROM admins')).rowCount).toBe(before);
  });

  it('list shows the admins, never a password hash', async () => {
    const run = await cli(['admins', 'list', '--json'], env);
    expect(run.code).toBe(0);
    const list = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
    expect(list.map((a) => a.email)).toEqual(['ada@example.com', 'grace@example.com']);
    for (const admin of list) expect(Object.keys(admin).sort()).toEqual(ADMIN_FIELDS);
    expect(run.stdout).not.toContain('scrypt');
    const human = await cli(['admins', 'list'], env);
    expect(human.stdout).toMatch(/^adm_\S+ {2}ada@example\.com {2}Ada Lovelace {2}created \S+$/m);
    expect(human.stdout).not.toContain('scrypt');
  });

  it('reset-password by email or ID sets the password and ends every session of that admin', async () => {
    const grace = (await stored('grace@example.com'))!;
    await addSession(grace.id, 'ses_01ARZ3NDEKTSV4RRFFQ69G5FA1');
    await addSession(grace.id, 'ses_01ARZ3NDEKTSV4RRFFQ69G5FA2');
    const run = await cli(['admins', 'reset-password', 'GRACE@example.com'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('sessions have ended');
    const generated = run.stdout.match(/^ {2}([A-Za-z0-9_-]{24})$/m)![1]!;
    expect(matches((await stored('grace@example.com'))!.password_hash, generated)).toBe(true);
    expect((await sql.query('SELECT id FROM admin_sessions WHERE admin_id = $1', [grace.id])).rows).toEqual([]);

    const byId = await cli(['admins', 'reset-password', grace.id, '--password-stdin', '--json'], env, 'a second long passphrase');
    expect(byId.code).toBe(0);
    expect(JSON.parse(byId.stdout)).toMatchObject({ id: grace.id, password: null });
    expect(matches((await stored('grace@example.com'))!.password_hash, 'a second long passphrase')).toBe(true);
    const { rows } = await sql.query("SELECT actor_kind, details FROM audit_log WHERE action = 'admin.password_reset' ORDER BY occurred_at");
    expect(rows).toEqual([
      { actor_kind: 'cli', details: { email: 'grace@example.com', sessionsEnded: 2 } },
      { actor_kind: 'cli', details: { email: 'grace@example.com', sessionsEnded: 0 } },
    ]);
  });

  it('reset-password of an unknown admin exits with code 2', async () => {
    const run = await cli(['admins', 'reset-password', 'nobody@example.com'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/nobody@example\.com not found/);
  });

  it('remove ends the admin and their sessions; the last admin cannot be removed (exit code 2)', async () => {
    const grace = (await stored('grace@example.com'))!;
    await addSession(grace.id, 'ses_01ARZ3NDEKTSV4RRFFQ69G5FA3');
    const run = await cli(['admins', 'remove', 'grace@example.com'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Removed admin ${grace.id}`);
    expect((await sql.query('SELECT id FROM admin_sessions WHERE admin_id = $1', [grace.id])).rows).toEqual([]);

    const last = await cli(['admins', 'remove', 'ada@example.com'], env);
    expect(last.code).toBe(2);
    expect(last.stderr).toContain("The last admin can't be removed");
    expect((await cli(['admins', 'list', '--json'], env)).stdout).toContain('ada@example.com');
    expect((await cli(['admins', 'remove', 'grace@example.com'], env)).code).toBe(2);
  });
});

describe('API start-up: the setup link for the first admin', () => {
  let database: TestDatabase;
  const dataDirs: string[] = [];
  const servers: ServerProcess[] = [];
  let sql: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await sql?.end();
    await database?.drop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  function start(): ServerProcess {
    const dataDir = mkdtempSync(join(tmpdir(), 'hc-setup-link-'));
    dataDirs.push(dataDir);
    const server = ServerProcess.spawn(dataDir, { DATABASE_URL: database.url, APP_SECRET: 'setup-link-test-secret-0123456789abcdef' });
    servers.push(server);
    return server;
  }

  const LINK = /First start: create the first admin at (http:\/\/\S+)\/settings\/setup\?token=([A-Za-z0-9_-]{43})$/m;

  it('two API processes starting together on a database without admins print one link between them, valid 24 h', async () => {
    const [a, b] = [start(), start()];
    await Promise.all([a.listening(), b.listening()]);
    const links = [a, b].map((s) => LINK.exec(s.stdout)).filter((m) => m !== null);
    expect(links).toHaveLength(1);
    const [, base, token] = links[0]!;
    const printer = [a, b].find((s) => LINK.test(s.stdout))!;
    expect(base).toBe(printer.url.replace('127.0.0.1', 'localhost'));
    const { rows } = await sql.query<{ token_hash: string; hours: number }>(
      'SELECT token_hash, (extract(epoch FROM expires_at - created_at) / 3600)::int AS hours FROM admin_setup_tokens',
    );
    expect(rows).toEqual([{ token_hash: createHash('sha256').update(token!).digest('hex'), hours: 24 }]);
    // The token is printed in the banner only, never in a log line.
    for (const line of (a.stdout + a.stderr + b.stdout + b.stderr).split('\n')) if (line.startsWith('{')) expect(line).not.toContain(token);
  });

  it('a later start prints no link while the first is unused and valid, nor once an admin exists', async () => {
    const again = start();
    await again.listening();
    expect(again.stdout).not.toMatch(LINK);
    await sql.query('UPDATE admin_setup_tokens SET expires_at = now() - interval \'1 second\'');
    const afterExpiry = start();
    await afterExpiry.listening();
    expect(afterExpiry.stdout).toMatch(LINK);
    await sql.query(`INSERT INTO admins (id, email, name, password_hash, created_at, updated_at) VALUES ('adm_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'a@example.com', 'A', 'x', now(), now())`);
    await sql.query('UPDATE admin_setup_tokens SET expires_at = now() - interval \'1 second\'');
    const withAdmin = start();
    await withAdmin.listening();
    expect(withAdmin.stdout).not.toMatch(LINK);
  });
});
