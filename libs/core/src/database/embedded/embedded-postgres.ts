import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import lockfile from 'proper-lockfile';
import { EMBEDDED_POSTGRES_MAJOR, type PostgresBinaries, postgresBinaries } from './postgres-binaries.js';
import { commandLine, isAlive, signal, waitForExit } from './processes.js';
import { type ServerAccount, serverAccount } from './server-account.js';

/** How a client reaches the embedded server: a Unix socket directory, as libpq and node-postgres expect it. */
export interface EmbeddedConnection {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly database: string;
}

export interface EmbeddedPostgresOptions {
  readonly dataDir: string;
  /** The server's max_connections: this process's pool plus room for attached workers and CLI runs. */
  readonly maxConnections: number;
  /** The account the server runs as when this process is root (PostgreSQL refuses root). */
  readonly osUser: string;
  /** Operational notices (an account created, a server left by a crashed process stopped). */
  readonly log?: (message: string) => void;
  /** The server stopped while this process still needed it (crashed or killed from outside). */
  readonly onUnexpectedExit?: (message: string) => void;
}

/** What the owner writes to `postgres.json` for attaching processes and for the next start after a crash. */
interface OwnerInfo {
  readonly pid: number;
  readonly socketDir: string;
  readonly postmasterPid: number | null;
  readonly watchdogPid: number | null;
}

class EmbeddedDatabaseLockedError extends Error {
  constructor(dataDir: string, pid: number | undefined) {
    super(
      `The embedded database in ${dataDir} is already served by another process${pid ? ` (pid ${pid})` : ''}. ` +
        'Stop that process, point DATA_DIR at another directory, or set DATABASE_URL to use a PostgreSQL server.',
    );
    this.name = 'EmbeddedDatabaseLockedError';
  }
}

/** The data directory holds the database of the earlier, PGlite-based embedded mode. */
class LegacyEmbeddedDatabaseError extends Error {
  constructor(dataDir: string) {
    const legacy = join(dataDir, 'pg');
    super(
      `${legacy} holds a database written by an earlier version of the embedded mode (PGlite), which this version no ` +
        'longer runs; nothing in it has been changed. To keep that data, export it with the earlier version and import ' +
        'it into this one (README, "Upgrading an embedded data directory from PGlite"). To start afresh instead, move ' +
        `${legacy}, ${legacy}.lock and ${legacy}.server.json out of ${dataDir}, or point DATA_DIR at a new directory.`,
    );
    this.name = 'LegacyEmbeddedDatabaseError';
  }
}

class EmbeddedDatabaseStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddedDatabaseStartError';
  }
}

const PORT = 5432;
const SUPERUSER = 'postgres';
const DATABASE = 'postgres';
const MAX_SOCKET_PATH = 100;
const READY_TIMEOUT_MS = 60_000;
const ATTACH_WAIT_MS = 30_000;
const FAST_STOP_MS = 15_000;
const LOG_ROTATE_BYTES = 10 * 1024 * 1024;
/** Messages in English whatever the machine's locale, so the log and errors read the same everywhere. */
const SERVER_ENV = { LC_ALL: 'C', LANG: 'C', TZ: 'UTC' };

/**
 * Stops the server when this process goes away, however it goes: the watchdog holds the read end of a pipe whose
 * write end only this process has, so end-of-file means this process exited (even by SIGKILL). It ignores the
 * terminal's signals and then asks for a fast shutdown (SIGINT: clients disconnected, a checkpoint, exit).
 */
const WATCHDOG = 'trap "" INT TERM HUP; while read -r _; do :; done; kill -INT "$1" 2>/dev/null';

/**
 * A real PostgreSQL server owned by this process, with its cluster under `<dataDir>/postgres`, listening only on a
 * Unix socket in a directory no other user can enter (`<dataDir>/run`), trust authentication on that socket and
 * no TCP listener at all.
 *
 * One process owns the data directory (`postgres.lock`, with the owner described in `postgres.json`). Another
 * process either gets a clear EmbeddedDatabaseLockedError or, when it only needs a client (CLI, worker), attaches
 * to the owner's socket. A start after a crash stops the server the dead owner left running (found through
 * `postmaster.pid`), clears stale lock files and starts a fresh one.
 */
export class EmbeddedPostgres {
  private release?: () => Promise<void>;
  private server?: ChildProcess;
  private serverExited?: Promise<void>;
  private watchdog?: ChildProcess;
  private stopping = false;
  private account?: ServerAccount;

  constructor(private readonly options: EmbeddedPostgresOptions) {}

  get clusterDir(): string {
    return join(this.options.dataDir, 'postgres');
  }

  private get infoFile(): string {
    return join(this.options.dataDir, 'postgres.json');
  }

  private get lockPath(): string {
    return join(this.options.dataDir, 'postgres.lock');
  }

  get logFile(): string {
    return join(this.options.dataDir, 'postgres.log');
  }

  /** Starts serving the database, or with `attach` connects to the process already serving it. */
  async start({ attach }: { attach: boolean }): Promise<EmbeddedConnection> {
    const { dataDir } = this.options;
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (isLegacyPglite(dataDir)) throw new LegacyEmbeddedDatabaseError(dataDir);
    const owner = await this.lock();
    if (owner) {
      if (!attach) throw new EmbeddedDatabaseLockedError(dataDir, owner.pid);
      return this.attach();
    }
    try {
      const binaries = await postgresBinaries();
      const account = serverAccount(this.options.osUser, (message) => this.log(message));
      this.account = account;
      const socketDir = this.socketDir();
      this.writeInfo({ pid: process.pid, socketDir, postmasterPid: null, watchdogPid: null });
      this.prepareDirectories(account, socketDir);
      await this.stopLeftoverServer(socketDir);
      await this.initialiseCluster(binaries, account);
      this.launch(binaries, account, socketDir);
      await this.waitUntilReady(socketDir);
      this.writeInfo({ pid: process.pid, socketDir, postmasterPid: this.server!.pid!, watchdogPid: this.watchdog?.pid ?? null });
      return connection(socketDir);
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** Stops the server this process started (fast shutdown) and gives up the data directory. */
  async stop(): Promise<void> {
    this.stopping = true;
    const server = this.server;
    if (server?.pid && server.exitCode === null && server.signalCode === null) {
      signal(server.pid, 'SIGINT');
      if (!(await within(this.serverExited!, FAST_STOP_MS))) {
        this.log(`PostgreSQL did not stop within ${FAST_STOP_MS / 1000} s of a fast shutdown; stopping it immediately`);
        signal(server.pid, 'SIGQUIT');
        if (!(await within(this.serverExited!, 5_000))) signal(server.pid, 'SIGKILL');
        await within(this.serverExited!, 5_000);
      }
    }
    this.server = undefined;
    if (this.watchdog) {
      const watchdog = this.watchdog;
      this.watchdog = undefined;
      if (watchdog.exitCode === null && watchdog.signalCode === null && watchdog.pid) {
        // Waited for, so this process reaps it: no zombie is left behind for an init that may not reap.
        const exited = new Promise<void>((resolve) => watchdog.once('exit', () => resolve()));
        signal(watchdog.pid, 'SIGKILL');
        await within(exited, 2_000);
      }
      watchdog.stdin?.destroy();
    }
    if (this.release) {
      rmSync(this.infoFile, { force: true });
      await this.release().catch(() => undefined);
      this.release = undefined;
    }
  }

  private log(message: string): void {
    this.options.log?.(message);
  }

  /** Takes the lock; returns the current owner instead when another live process holds it. */
  private async lock(): Promise<OwnerInfo | undefined> {
    const options = { lockfilePath: this.lockPath, realpath: false, stale: 10_000, onCompromised: () => undefined };
    try {
      this.release = await lockfile.lock(this.options.dataDir, options);
      return undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    }
    const owner = this.readInfo();
    if (owner && owner.pid !== process.pid && isAlive(owner.pid)) return owner;
    if (!owner) return { pid: 0, socketDir: '', postmasterPid: null, watchdogPid: null };
    // The owner died without releasing the lock (kill -9): take it over. (lockfile.unlock only releases a
    // lock this process holds, so the dead owner's lock directory is removed by hand.)
    rmSync(this.lockPath, { recursive: true, force: true });
    this.release = await lockfile.lock(this.options.dataDir, options);
    return undefined;
  }

  /** A client of the live owner's server; waits while the owner is still starting it. */
  private async attach(): Promise<EmbeddedConnection> {
    const deadline = Date.now() + ATTACH_WAIT_MS;
    for (;;) {
      const owner = this.readInfo();
      if (owner && !isAlive(owner.pid)) break;
      if (owner?.postmasterPid && existsSync(join(owner.socketDir, `.s.PGSQL.${PORT}`))) return connection(owner.socketDir);
      if (Date.now() > deadline) break;
      await sleep(100);
    }
    throw new EmbeddedDatabaseLockedError(this.options.dataDir, this.readInfo()?.pid);
  }

  private readInfo(): OwnerInfo | undefined {
    try {
      return JSON.parse(readFileSync(this.infoFile, 'utf8')) as OwnerInfo;
    } catch {
      return undefined;
    }
  }

  private writeInfo(info: OwnerInfo): void {
    const temporary = `${this.infoFile}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(info), { mode: 0o600 });
    renameSync(temporary, this.infoFile);
  }

  /**
   * The data directory is the owner's alone (0700). When the server runs as another account (this process is
   * root), that account's group may only pass through it (0710, group of the server's account), and the cluster
   * and socket directories belong to the server's account.
   */
  private prepareDirectories(account: ServerAccount, socketDir: string): void {
    const { dataDir } = this.options;
    const stat = statSync(dataDir);
    // Only a directory of this process's own: never loosen or tighten /tmp or a shared directory given as DATA_DIR.
    if (stat.uid === process.getuid?.() && (stat.mode & 0o1002) === 0) {
      if (account.switched) {
        chownSync(dataDir, stat.uid, account.gid);
        chmodSync(dataDir, 0o710);
      } else {
        chmodSync(dataDir, 0o700);
      }
    }
    mkdirSync(socketDir, { recursive: true, mode: 0o700 });
    if (account.switched) chownSync(socketDir, account.uid, account.gid);
    chmodSync(socketDir, 0o700);
    if (existsSync(this.clusterDir) && statSync(this.clusterDir).uid !== account.uid) {
      if (!account.switched && process.getuid?.() !== 0) {
        throw new EmbeddedDatabaseStartError(
          `${this.clusterDir} belongs to another user (uid ${statSync(this.clusterDir).uid}); start the service as that user, or as root`,
        );
      }
      this.log(`Giving ${this.clusterDir} to the account "${account.name}" the server runs as`);
      chownTree(this.clusterDir, account.uid, account.gid);
    }
    this.rotateLog();
  }

  /** A server the crashed previous owner left running on this cluster is stopped; stale lock files are removed. */
  private async stopLeftoverServer(socketDir: string): Promise<void> {
    const pidFile = join(this.clusterDir, 'postmaster.pid');
    const pid = readPostmasterPid(pidFile);
    if (pid !== undefined && isAlive(pid)) {
      const command = commandLine(pid) ?? '';
      if (command.includes('postgres') && command.includes(this.clusterDir)) {
        this.log(`Stopping the PostgreSQL server (pid ${pid}) that an earlier process left running on ${this.clusterDir}`);
        signal(pid, 'SIGINT');
        if (!(await waitForExit(pid, 30_000))) {
          signal(pid, 'SIGQUIT');
          if (!(await waitForExit(pid, 10_000))) {
            signal(pid, 'SIGKILL');
            await waitForExit(pid, 5_000);
          }
        }
        if (isAlive(pid)) throw new EmbeddedDatabaseStartError(`the PostgreSQL server left running on ${this.clusterDir} (pid ${pid}) cannot be stopped`);
      } else {
        // The ID now belongs to an unrelated process: PostgreSQL would take it for a live server and refuse to start.
        rmSync(pidFile, { force: true });
      }
    }
    // This process holds the lock, so no server of this cluster listens on this socket any more.
    for (const name of [`.s.PGSQL.${PORT}`, `.s.PGSQL.${PORT}.lock`]) rmSync(join(socketDir, name), { force: true });
  }

  /** initdb on first start, into a scratch directory renamed into place, so a start killed half-way leaves no half cluster. */
  private async initialiseCluster(binaries: PostgresBinaries, account: ServerAccount): Promise<void> {
    const versionFile = join(this.clusterDir, 'PG_VERSION');
    if (existsSync(versionFile)) {
      const major = Number(readFileSync(versionFile, 'utf8').trim());
      if (major !== EMBEDDED_POSTGRES_MAJOR) {
        throw new EmbeddedDatabaseStartError(
          `${this.clusterDir} was created by PostgreSQL ${major}, and this version runs PostgreSQL ${EMBEDDED_POSTGRES_MAJOR}. ` +
            'Upgrade the cluster with pg_upgrade, or dump it with the earlier version and restore the dump into a new DATA_DIR',
        );
      }
      return;
    }
    if (existsSync(this.clusterDir)) {
      if (readdirSync(this.clusterDir).length > 0) {
        throw new EmbeddedDatabaseStartError(`${this.clusterDir} is not empty but holds no PostgreSQL cluster (no PG_VERSION); move it away`);
      }
      rmSync(this.clusterDir, { recursive: true });
    }
    const scratch = `${this.clusterDir}.init`;
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { mode: 0o700 });
    if (account.switched) chownSync(scratch, account.uid, account.gid);
    const args = [
      `--pgdata=${scratch}`,
      `--username=${SUPERUSER}`,
      '--encoding=UTF8',
      // The built-in provider (PostgreSQL 17): Unicode-aware upper/lower and code-point order, the same on every platform.
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      '--locale=C',
      '--auth-local=trust',
      '--auth-host=reject',
      '--no-instructions',
    ];
    const output = await run(binaries.initdb, args, account);
    if (output.code !== 0) {
      rmSync(scratch, { recursive: true, force: true });
      throw new EmbeddedDatabaseStartError(`initdb failed (exit ${output.code}): ${output.text.trim().split('\n').slice(-5).join(' | ')}${hint(account)}`);
    }
    renameSync(scratch, this.clusterDir);
  }

  private launch(binaries: PostgresBinaries, account: ServerAccount, socketDir: string): void {
    const log = openSync(this.logFile, 'a', 0o600);
    try {
      const server = spawn(
        binaries.postgres,
        [
          '-D', this.clusterDir,
          '-k', socketDir,
          '-p', String(PORT),
          '-c', 'listen_addresses=',
          '-c', 'unix_socket_permissions=0700',
          '-c', `max_connections=${this.options.maxConnections}`,
        ],
        {
          ...(account.switched ? { uid: account.uid, gid: account.gid } : {}),
          // Its own session: a Ctrl+C meant for this process does not stop the database under a graceful shutdown.
          detached: true,
          stdio: ['ignore', log, log],
          env: { PATH: process.env.PATH ?? '', ...SERVER_ENV },
        },
      );
      this.server = server;
      this.serverExited = new Promise((resolve) => {
        server.once('exit', (code, sig) => {
          resolve();
          if (!this.stopping) {
            this.options.onUnexpectedExit?.(`The embedded PostgreSQL server exited (${sig ?? `code ${code}`}); see ${this.logFile}`);
          }
        });
        server.once('error', () => resolve());
      });
      server.unref();
    } finally {
      closeSync(log);
    }
    if (!this.server.pid) return;
    const watchdog = spawn('/bin/sh', ['-c', WATCHDOG, 'help-center-pg-watchdog', String(this.server.pid)], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    watchdog.on('error', (error) => this.log(`PostgreSQL watchdog: ${error.message}`));
    watchdog.unref();
    (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    this.watchdog = watchdog;
  }

  private async waitUntilReady(socketDir: string): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    let lastError: string;
    for (;;) {
      const server = this.server!;
      if (server.exitCode !== null || server.signalCode !== null || !server.pid) {
        throw new EmbeddedDatabaseStartError(`PostgreSQL exited while starting: ${tail(this.logFile)}${hint(this.account)}`);
      }
      const client = new pg.Client({ ...connection(socketDir), connectionTimeoutMillis: 2_000 });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return;
      } catch (error) {
        lastError = (error as Error).message;
      } finally {
        await client.end().catch(() => undefined);
      }
      if (Date.now() > deadline) throw new EmbeddedDatabaseStartError(`PostgreSQL did not accept connections within 60 s (${lastError}): ${tail(this.logFile)}`);
      await sleep(50);
    }
  }

  private rotateLog(): void {
    try {
      if (statSync(this.logFile).size > LOG_ROTATE_BYTES) renameSync(this.logFile, `${this.logFile}.1`);
    } catch {
      // No log yet.
    }
  }

  /** Unix socket paths are limited to ~104 bytes; deep data directories get a socket under the temp dir. */
  private socketDir(): string {
    const local = join(this.options.dataDir, 'run');
    if (join(local, `.s.PGSQL.${PORT}`).length <= MAX_SOCKET_PATH) return local;
    const digest = createHash('sha256').update(this.options.dataDir).digest('hex').slice(0, 16);
    return join(tmpdir(), `help-center-pg-${digest}`);
  }
}

function connection(socketDir: string): EmbeddedConnection {
  return { host: socketDir, port: PORT, user: SUPERUSER, database: DATABASE };
}

function isLegacyPglite(dataDir: string): boolean {
  const legacy = join(dataDir, 'pg');
  try {
    return lstatSync(legacy).isDirectory() && readdirSync(legacy).length > 0;
  } catch {
    return false;
  }
}

function readPostmasterPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function chownTree(path: string, uid: number, gid: number): void {
  chownSync(path, uid, gid);
  if (!lstatSync(path).isDirectory()) return;
  for (const entry of readdirSync(path)) chownTree(join(path, entry), uid, gid);
}

function run(command: string, args: readonly string[], account: ServerAccount): Promise<{ code: number | null; text: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      ...(account.switched ? { uid: account.uid, gid: account.gid } : {}),
      // initdb works in its own directory; the caller's may not be readable by the server's account.
      cwd: tmpdir(),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', ...SERVER_ENV },
    });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', (error) => resolve({ code: -1, text: error.message }));
    child.on('close', (code) => resolve({ code, text }));
  });
}

function hint(account: ServerAccount | undefined): string {
  return account?.switched
    ? ` (the server runs as the account "${account.name}", which must be able to reach DATA_DIR and node_modules: every directory above them needs o+x)`
    : '';
}

/** The last lines of the server log, for an error message. */
function tail(file: string): string {
  try {
    const fd = openSync(file, 'r');
    try {
      const size = statSync(file).size;
      const length = Math.min(size, 2_000);
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, size - length);
      return buffer.toString('utf8').trim().split('\n').slice(-5).join(' | ');
    } finally {
      closeSync(fd);
    }
  } catch {
    return `(no log at ${file})`;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function within(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
