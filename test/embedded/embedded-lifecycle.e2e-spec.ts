import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, jest } from '@jest/globals';
import { eventually } from '../support/eventually.js';
import { ServerProcess } from '../support/server-process.js';

/**
 * The embedded PostgreSQL server lives and dies with the built service (`npm start`), whichever way the service
 * exits: SIGTERM, SIGINT, kill -9, or its database dying under it. Leftovers of a crash are recovered on the next
 * start; a data directory of the earlier PGlite-based version is refused with a message and left untouched.
 * Runs as whatever user runs the tests (root on CI: the server then runs as the `postgres` account).
 */

jest.setTimeout(180_000);

const KEY = /hck_[0-9A-Za-z]{40,}/;
const dirs: string[] = [];
const started: ServerProcess[] = [];

interface OwnerInfo {
  pid: number;
  socketDir: string;
  postmasterPid: number;
  watchdogPid: number;
}

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hc-lifecycle-'));
  dirs.push(dir);
  return dir;
}

async function start(dir: string): Promise<{ server: ServerProcess; key: string | undefined; owner: OwnerInfo }> {
  const server = ServerProcess.spawn(dir, { LOG_LEVEL: 'info' });
  started.push(server);
  await server.listening();
  const owner = JSON.parse(readFileSync(join(dir, 'postgres.json'), 'utf8')) as OwnerInfo;
  return { server, key: KEY.exec(server.stdout)?.[0], owner };
}

/** Running: exists and is not a zombie (an exited process not reaped yet, which a container's PID 1 may never do). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

const gone = (pid: number, what: string) => eventually(async () => !alive(pid), `${what} (pid ${pid}) to exit`, 30_000);

async function createSection(server: ServerProcess, key: string, name: string): Promise<string> {
  const res = await server.fetch('/v1/sections', key, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name }) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

afterEach(async () => {
  for (const server of started.splice(0)) await server.stop();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the embedded PostgreSQL server stops with the service', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s: a clean shutdown stops PostgreSQL and its watchdog, and says nothing alarming', async (signal) => {
    const dir = dataDir();
    const { server, owner } = await start(dir);
    expect(alive(owner.postmasterPid)).toBe(true);
    expect(alive(owner.watchdogPid)).toBe(true);
    server.child.kill(signal);
    const exit = await server.exited;
    expect(exit.code === 0 || exit.signal === signal).toBe(true);
    // Gone by the time the service has exited: no polling needed.
    expect(alive(owner.postmasterPid)).toBe(false);
    expect(alive(owner.watchdogPid)).toBe(false);
    expect(server.stderr).not.toMatch(/error|terminat|Cannot read/i);
    expect(server.stdout).not.toMatch(/"level":(40|50|60)/);
    expect(existsSync(join(dir, 'postgres.json'))).toBe(false);
    expect(readFileSync(join(dir, 'postgres.log'), 'utf8')).toContain('database system is shut down');
  });

  it('kill -9 of the service: the watchdog stops PostgreSQL cleanly, and the next start keeps every row', async () => {
    const dir = dataDir();
    const first = await start(dir);
    const sectionId = await createSection(first.server, first.key!, 'Written before kill -9');
    first.server.child.kill('SIGKILL');
    await first.server.exited;
    await gone(first.owner.postmasterPid, 'PostgreSQL');
    await gone(first.owner.watchdogPid, 'the watchdog');
    // A fast shutdown, not a crash: the log says so.
    expect(readFileSync(join(dir, 'postgres.log'), 'utf8')).toMatch(/received fast shutdown request[\s\S]*database system is shut down/);

    const second = await start(dir);
    expect(second.key).toBeUndefined();
    const res = await second.server.fetch(`/v1/sections/${sectionId}`, first.key);
    expect(res.status).toBe(200);
  });

  it('kill -9 of the service and its watchdog: the next start stops the server left running and takes over', async () => {
    const dir = dataDir();
    const first = await start(dir);
    const sectionId = await createSection(first.server, first.key!, 'Written before the orphan');
    process.kill(first.owner.watchdogPid, 'SIGKILL');
    first.server.child.kill('SIGKILL');
    await first.server.exited;
    await gone(first.owner.watchdogPid, 'the watchdog');
    // The orphan: re-parented, still serving its socket.
    expect(alive(first.owner.postmasterPid)).toBe(true);

    const second = await start(dir);
    expect(second.server.stdout).toContain(`Stopping the PostgreSQL server (pid ${first.owner.postmasterPid}) that an earlier process left running`);
    expect(alive(first.owner.postmasterPid)).toBe(false);
    expect(second.owner.postmasterPid).not.toBe(first.owner.postmasterPid);
    expect((await second.server.fetch(`/v1/sections/${sectionId}`, first.key)).status).toBe(200);
  });

  it('everything killed at once, and postmaster.pid naming a live unrelated process: the next start recovers', async () => {
    const dir = dataDir();
    const first = await start(dir);
    const sectionId = await createSection(first.server, first.key!, 'Written before everything died');
    for (const pid of [first.owner.watchdogPid, first.owner.postmasterPid]) process.kill(pid, 'SIGKILL');
    first.server.child.kill('SIGKILL');
    await first.server.exited;
    await gone(first.owner.postmasterPid, 'PostgreSQL');
    // After a reboot the recorded ID may belong to anything; PostgreSQL alone would refuse to start.
    const pidFile = join(dir, 'postgres', 'postmaster.pid');
    const lines = readFileSync(pidFile, 'utf8').split('\n');
    lines[0] = String(process.pid);
    writeFileSync(pidFile, lines.join('\n'));

    const second = await start(dir);
    expect((await second.server.fetch(`/v1/sections/${sectionId}`, first.key)).status).toBe(200);
    expect(readFileSync(join(dir, 'postgres.log'), 'utf8')).toMatch(/database system was interrupted|not properly shut down/);
  });

  it('PostgreSQL killed under the running service: the service says why and exits; the next start recovers', async () => {
    const dir = dataDir();
    const first = await start(dir);
    const sectionId = await createSection(first.server, first.key!, 'Written before the database died');
    process.kill(first.owner.postmasterPid, 'SIGKILL');
    const exit = await first.server.exited;
    expect(exit.code !== 0 || exit.signal !== null).toBe(true);
    expect(first.server.stdout + first.server.stderr).toContain('The embedded PostgreSQL server exited (SIGKILL)');
    await gone(first.owner.watchdogPid, 'the watchdog');

    const second = await start(dir);
    expect((await second.server.fetch(`/v1/sections/${sectionId}`, first.key)).status).toBe(200);
  });
});

describe('the data directory', () => {
  it('is the owner’s alone: the directory, the cluster, the socket directory and the files in it', async () => {
    const dir = dataDir();
    const { owner } = await start(dir);
    const root = process.getuid!() === 0;
    const mode = (path: string) => statSync(path).mode & 0o777;
    // As root the server's account may pass through the data directory, no more.
    expect(mode(dir)).toBe(root ? 0o710 : 0o700);
    expect(mode(join(dir, 'postgres'))).toBe(0o700);
    expect(mode(owner.socketDir)).toBe(0o700);
    for (const file of ['postgres.json', 'postgres.log', 'app-secret']) expect(mode(join(dir, file))).toBe(0o600);
    if (root) {
      // PostgreSQL refuses root: the cluster belongs to the account it runs as.
      expect(statSync(join(dir, 'postgres')).uid).not.toBe(0);
      expect(statSync(join(dir, 'postgres')).uid).toBe(statSync(owner.socketDir).uid);
    } else {
      expect(statSync(join(dir, 'postgres')).uid).toBe(process.getuid!());
    }
  });

  it('one left by the earlier PGlite-based version is refused with what to do, and left untouched', async () => {
    const dir = dataDir();
    mkdirSync(join(dir, 'pg', 'base'), { recursive: true });
    writeFileSync(join(dir, 'pg', 'PG_VERSION'), '17\n');
    writeFileSync(join(dir, 'pg', 'base', 'data'), 'rows');
    writeFileSync(join(dir, 'pg.server.json'), '{"pid":1,"socketDir":"/nowhere"}');
    const server = ServerProcess.spawn(dir);
    started.push(server);
    const exit = await server.exited;
    expect(exit.code).toBe(1);
    expect(server.stderr).toContain('holds a database written by an earlier version of the embedded mode (PGlite)');
    expect(server.stderr).toContain('Upgrading an embedded data directory from PGlite');
    expect(server.stdout).not.toMatch(KEY);
    expect(readFileSync(join(dir, 'pg', 'base', 'data'), 'utf8')).toBe('rows');
    expect(existsSync(join(dir, 'postgres'))).toBe(false);
  });

  it('a cluster of another PostgreSQL major version is refused with what to do', async () => {
    const dir = dataDir();
    mkdirSync(join(dir, 'postgres'), { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, 'postgres', 'PG_VERSION'), '15\n');
    const server = ServerProcess.spawn(dir);
    started.push(server);
    const exit = await server.exited;
    expect(exit.code).toBe(1);
    expect(server.stderr).toContain('was created by PostgreSQL 15, and this version runs PostgreSQL 17');
  });
});
