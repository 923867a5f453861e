import type { JobName, JobPayloads } from './job-name.js';

export interface JobOptions {
  /**
   * Deduplicates: a job with an ID that is waiting, delayed or running is not added again. BullMQ also keeps
   * the IDs of finished jobs for their retention (1 h completed, 7 days failed), so IDs should name one piece
   * of work (e.g. include a time bucket) rather than be reused for new work.
   */
  readonly jobId?: string;
  readonly delayMs?: number;
  /** Total attempts including the first (default 3). */
  readonly attempts?: number;
  /**
   * Delay before retry n (1-based) in ms; default exponential from 1 s. `dictated`: the processor decides, by
   * throwing a RetryLaterError that carries the delay (e.g. a retry schedule, or a Retry-After header).
   */
  readonly backoff?: { readonly type: 'fixed' | 'exponential'; readonly delayMs: number } | { readonly type: 'dictated' };
  /** Forget the job as soon as it finishes, so its ID can be used again at once (default: keep it a while). */
  readonly removeOnFinish?: boolean;
}

/** Thrown by a processor to have its job retried after a delay it chooses (with `backoff: { type: 'dictated' }`). */
export class RetryLaterError extends Error {
  constructor(
    message: string,
    readonly retryDelayMs: number,
    /** Not a failure worth a log line (e.g. waiting for a free slot). */
    readonly quiet = false,
  ) {
    super(message);
    this.name = 'RetryLaterError';
  }
}

/** Port: the only way application code produces jobs. */
export abstract class JobQueue {
  abstract add<N extends JobName>(name: N, payload: JobPayloads[N], options?: JobOptions): Promise<void>;
  /** Many jobs of one name at once (one round trip on Redis). */
  abstract addBulk<N extends JobName>(name: N, jobs: ReadonlyArray<{ payload: JobPayloads[N]; options?: JobOptions }>): Promise<void>;
  /** Forgets a waiting or delayed job (not a running one), so its ID can be queued again at once. */
  abstract remove(name: JobName, jobId: string): Promise<void>;
  /** Runs `name` every `everyMs` (idempotent: processes may all declare the same schedule). */
  abstract repeat<N extends JobName>(name: N, everyMs: number, payload: JobPayloads[N]): Promise<void>;
  /** Throws when the queue backend is unreachable (readiness check). */
  abstract ping(): Promise<void>;
}

export const DEFAULT_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 1_000 },
} as const satisfies JobOptions;

/** Delay before retry `attemptsMade` (1 after the first failure), as BullMQ computes it. */
export function retryDelay(backoff: NonNullable<JobOptions['backoff']>, attemptsMade: number, error?: unknown): number {
  if (backoff.type === 'dictated') return dictatedDelay(error);
  return backoff.type === 'fixed' ? backoff.delayMs : backoff.delayMs * 2 ** (attemptsMade - 1);
}

/** The delay a RetryLaterError asks for; 1 s for any other error. */
export function dictatedDelay(error: unknown): number {
  return error instanceof RetryLaterError ? Math.max(0, error.retryDelayMs) : 1_000;
}
