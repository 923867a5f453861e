import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';

/** The built entry points (`npm test` builds before running Jest). */
export const MAIN = resolve('dist/apps/api/src/main.js');
export const WORKER = resolve('dist/apps/worker/src/main.js');
export const CLI = resolve('dist/apps/cli/src/main.js');

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A child's environment: only PATH, HOME and `extra`, so no ambient DATABASE_URL/REDIS_URL leaks in. */
export function childEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...extra };
}

/** Runs `node script args` to completion with `childEnv(env)`, collecting its output. */
export function runNode(script: string, args: readonly string[], env: Record<string, string>, timeoutMs = 60_000): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [script, ...args], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} ${args.join(' ')} did not finish within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

export interface WorkerProcess {
  /** SIGTERM, then SIGKILL if it is still running 30 s later; resolves once it has exited. */
  stop(): Promise<void>;
  /** Throws with the worker's output when it logged an error (pino level 50 or 60). */
  assertNoErrors(): void;
}

/** Starts the built worker (what `npm run start:worker` runs) with `childEnv(env)`, collecting its output. */
export function startWorker(env: Record<string, string>): WorkerProcess {
  const worker = spawn(process.execPath, [WORKER], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  worker.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  worker.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((r) => worker.on('exit', () => r()));
  return {
    async stop() {
      if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGTERM');
      const timer = setTimeout(() => worker.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
    assertNoErrors() {
      if (/"level":(50|60)/.test(output)) throw new Error(`The worker logged errors:\n${output}`);
    },
  };
}
