import { execFileSync } from 'node:child_process';

/** The operating-system account the PostgreSQL server runs as. */
export interface ServerAccount {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
  /** True when the server runs as another account than this process (this process is root). */
  readonly switched: boolean;
}

class ServerAccountError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServerAccountError';
  }
}

/**
 * PostgreSQL refuses to run as root. An ordinary user runs the server as itself. Root (containers, CI) runs it
 * as `osUser` (EMBEDDED_POSTGRES_USER, default `postgres`), which is created as a system account without a home
 * or login shell when it does not exist yet.
 */
export function serverAccount(osUser: string, log: (message: string) => void): ServerAccount {
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  if (uid === undefined || gid === undefined) throw new ServerAccountError('the embedded PostgreSQL server needs a POSIX system (Linux or macOS)');
  if (uid !== 0) return { name: currentUserName(), uid, gid, switched: false };
  let ids = lookup(osUser);
  if (!ids) {
    createSystemUser(osUser);
    log(`Created the system account "${osUser}" to run the embedded PostgreSQL server (PostgreSQL refuses to run as root)`);
    ids = lookup(osUser);
    if (!ids) throw new ServerAccountError(`the system account "${osUser}" was created but cannot be looked up`);
  }
  if (ids.uid === 0) throw new ServerAccountError(`EMBEDDED_POSTGRES_USER "${osUser}" is root; PostgreSQL refuses to run as root`);
  return { name: osUser, uid: ids.uid, gid: ids.gid, switched: true };
}

function lookup(name: string): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
  } catch {
    return undefined;
  }
}

function createSystemUser(name: string): void {
  const attempts: Array<[string, string[]]> = [
    ['useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', name]],
    // BusyBox (Alpine): a system account in a group of its own name.
    ['sh', ['-c', 'addgroup -S "$0" && adduser -S -D -H -h /nonexistent -s /sbin/nologin -G "$0" "$0"', name]],
  ];
  const failures: string[] = [];
  for (const [command, args] of attempts) {
    try {
      execFileSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      return;
    } catch (error) {
      failures.push(`${command}: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  throw new ServerAccountError(
    `running as root, and the system account "${name}" to run PostgreSQL as does not exist and could not be created ` +
      `(${failures.join('; ')}). Create it (useradd --system ${name}), set EMBEDDED_POSTGRES_USER to an existing account, ` +
      'or run the service as an ordinary user',
  );
}

function currentUserName(): string {
  try {
    return execFileSync('id', ['-un'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return String(process.getuid?.());
  }
}
