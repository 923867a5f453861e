import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import lockfile from 'proper-lockfile';

/** How a client reaches the embedded database: a Unix socket directory, as libpq and node-postgres expect it. */
export interface EmbeddedConnection {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly database: string;
}

interface ServerInfo {
  readonly pid: number;
  readonly socketDir: string;
}

export class EmbeddedDatabaseLockedError extends Error {
  constructor(dataDir: string, pid: number | undefined) {
    super(
      `The embedded database in ${dataDir} is already served by another process${pid ? ` (pid ${pid})` : ''}. ` +
        'Stop that process, point DATA_DIR at another directory, or set DATABASE_URL to use a PostgreSQL server.',
    );
    this.name = 'EmbeddedDatabaseLockedError';
  }
}

const SOCKET_PORT = 5432;
const MAX_SOCKET_PATH = 100;

/**
 * PGlite (PostgreSQL compiled to WASM) kept under `<dataDir>/pg` and served over the PostgreSQL wire protocol
 * on a Unix socket, so the service uses the same driver, SQL and migrations as with a real server.
 *
 * One process owns the data directory (a lock file guards it). Another process either gets a clear
 * EmbeddedDatabaseLockedError or, when it only needs a client (CLI, worker), attaches to the owner's socket.
 */
export class EmbeddedPostgres {
  private db?: PGlite;
  private server?: PGLiteSocketServer;
  private release?: () => Promise<void>;

  constructor(
    private readonly dataDir: string,
    private readonly maxConnections: number,
  ) {}

  private get pgDir(): string {
    return join(this.dataDir, 'pg');
  }

  private get infoFile(): string {
    return join(this.dataDir, 'pg.server.json');
  }

  private get lockPath(): string {
    return join(this.dataDir, 'pg.lock');
  }

  /** Starts serving the database, or with `attach` connects to the process already serving it. */
  async start({ attach }: { attach: boolean }): Promise<EmbeddedConnection> {
    mkdirSync(this.pgDir, { recursive: true });
    const owner = await this.lock();
    if (owner) {
      if (!attach || !existsSync(join(owner.socketDir, `.s.PGSQL.${SOCKET_PORT}`))) {
        throw new EmbeddedDatabaseLockedError(this.dataDir, owner.pid);
      }
      return this.connection(owner.socketDir);
    }
    try {
      this.db = await PGlite.create({ dataDir: this.pgDir });
      const socketDir = this.socketDir();
      mkdirSync(socketDir, { recursive: true, mode: 0o700 });
      rmSync(join(socketDir, `.s.PGSQL.${SOCKET_PORT}`), { force: true });
      this.server = new PGLiteSocketServer({
        db: this.db,
        path: join(socketDir, `.s.PGSQL.${SOCKET_PORT}`),
        maxConnections: this.maxConnections,
      });
      await this.server.start();
      const info: ServerInfo = { pid: process.pid, socketDir };
      writeFileSync(this.infoFile, JSON.stringify(info), { mode: 0o600 });
      return this.connection(socketDir);
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  async stop(): Promise<void> {
    await this.server?.stop().catch(() => undefined);
    this.server = undefined;
    await this.db?.close().catch(() => undefined);
    this.db = undefined;
    if (this.release) {
      rmSync(this.infoFile, { force: true });
      await this.release().catch(() => undefined);
      this.release = undefined;
    }
  }

  /** Takes the lock; returns the current owner instead when another live process holds it. */
  private async lock(): Promise<ServerInfo | undefined> {
    const options = { lockfilePath: this.lockPath, realpath: false, stale: 10_000, onCompromised: () => undefined };
    try {
      this.release = await lockfile.lock(this.pgDir, options);
      return undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    }
    const owner = this.readInfo();
    if (owner && isAlive(owner.pid)) return owner;
    if (!owner) return { pid: 0, socketDir: '' };
    // The owner died without releasing the lock (kill -9): take it over. (lockfile.unlock only releases a
    // lock this process holds, so the dead owner's lock directory is removed by hand.)
    rmSync(this.lockPath, { recursive: true, force: true });
    this.release = await lockfile.lock(this.pgDir, options);
    return undefined;
  }

  private readInfo(): ServerInfo | undefined {
    try {
      return JSON.parse(readFileSync(this.infoFile, 'utf8')) as ServerInfo;
    } catch {
      return undefined;
    }
  }

  /** Unix socket paths are limited to ~104 bytes; deep data directories get a socket under the temp dir. */
  private socketDir(): string {
    const local = join(this.dataDir, 'run');
    if (join(local, `.s.PGSQL.${SOCKET_PORT}`).length <= MAX_SOCKET_PATH) return local;
    const digest = createHash('sha256').update(this.dataDir).digest('hex').slice(0, 16);
    return join(tmpdir(), `help-center-pg-${digest}`);
  }

  private connection(socketDir: string): EmbeddedConnection {
    return { host: socketDir, port: SOCKET_PORT, user: 'postgres', database: 'postgres' };
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
