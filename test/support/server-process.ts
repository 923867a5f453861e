import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { childEnv, MAIN } from './processes.js';

/** A running `node dist/apps/api/src/main.js` (what `npm start` runs once built). */
export class ServerProcess {
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  url = '';

  private constructor(readonly child: ChildProcessByStdio<null, Readable, Readable>) {
    child.stdout.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolvePromise) => child.on('exit', (code, signal) => resolvePromise({ code, signal })));
  }

  /**
   * Starts the service on `dataDir`, on a free port of 127.0.0.1, accepting http webhook endpoints on 127.0.0.1.
   * `extraEnv` adds to (or overrides) that environment; nothing else of this process's environment is passed on.
   */
  static spawn(dataDir: string, extraEnv: Record<string, string> = {}): ServerProcess {
    const child = spawn(process.execPath, [MAIN], {
      env: childEnv({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32', ...extraEnv }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new ServerProcess(child);
  }

  /** Resolves once the process prints its URL; fails with its output if it exits or takes over 60 s. */
  async listening(): Promise<this> {
    const deadline = Date.now() + 60_000;
    let done = false;
    void this.exited.then(() => (done = true));
    for (;;) {
      const match = /listening on (http:\/\/\S+)/.exec(this.stdout);
      // The banner is one write: once the URL is there, the rest of it is too.
      if (match) {
        this.url = match[1]!.replace('localhost', '127.0.0.1');
        return this;
      }
      if (done) throw new Error(`The server exited before listening.\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`);
      if (Date.now() > deadline) throw new Error(`The server did not listen within 60 s.\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** SIGTERM, then SIGKILL if it is still running 30 s later; resolves with how it exited. */
  async stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  fetch(path: string, key?: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`${this.url}${path}`, { ...init, headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...(init.headers ?? {}) } });
  }
}
