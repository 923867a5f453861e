import { type BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { JobName, type JobPayloads } from './job-name.js';
import { DEFAULT_JOB_OPTIONS, type JobOptions, JobQueue, RetryLaterError, retryDelay } from './job-queue.port.js';
import { JobProcessorRegistry } from './job-processor.registry.js';

interface PendingJob {
  readonly name: JobName;
  readonly payload: unknown;
  readonly jobId: string | undefined;
  readonly attempts: number;
  readonly backoff: NonNullable<JobOptions['backoff']>;
  attemptsMade: number;
}

/**
 * Runs jobs in this process (embedded mode, no REDIS_URL): delays, retries with backoff, job-ID
 * deduplication and per-job concurrency as BullMQ would. Jobs live in memory; work that must survive a
 * restart is also recorded in the database (outbox, task rows) and swept up again on start.
 */
@Injectable()
export class InlineJobQueue extends JobQueue implements BeforeApplicationShutdown {
  private readonly logger = new Logger('InlineJobQueue');
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Delayed jobs by job ID (to remove one). */
  private readonly delayedById = new Map<string, NodeJS.Timeout>();
  private readonly intervals = new Map<JobName, NodeJS.Timeout>();
  private readonly activeIds = new Set<string>();
  private readonly running = new Map<JobName, number>();
  private readonly ready = new Map<JobName, PendingJob[]>();
  private readonly inFlight = new Set<Promise<void>>();
  private idleWaiters: Array<() => void> = [];
  private closed = false;

  constructor(private readonly registry: JobProcessorRegistry) {
    super();
  }

  async add<N extends JobName>(name: N, payload: JobPayloads[N], options: JobOptions = {}): Promise<void> {
    if (this.closed) return;
    // Jobs cross a JSON boundary under BullMQ; do the same here so processors see identical payloads
    // (and a payload that cannot be serialised fails here, before its job ID is taken).
    const cloned = JSON.parse(JSON.stringify(payload)) as unknown;
    if (options.jobId !== undefined) {
      if (this.activeIds.has(options.jobId)) return;
      this.activeIds.add(options.jobId);
    }
    const job: PendingJob = {
      name,
      payload: cloned,
      jobId: options.jobId,
      attempts: options.attempts ?? DEFAULT_JOB_OPTIONS.attempts,
      backoff: options.backoff ?? DEFAULT_JOB_OPTIONS.backoff,
      attemptsMade: 0,
    };
    this.later(options.delayMs ?? 0, job);
  }

  async addBulk<N extends JobName>(name: N, jobs: ReadonlyArray<{ payload: JobPayloads[N]; options?: JobOptions }>): Promise<void> {
    for (const job of jobs) await this.add(name, job.payload, job.options);
  }

  async remove(name: JobName, jobId: string): Promise<void> {
    const delayed = this.delayedById.get(jobId);
    if (delayed) {
      clearTimeout(delayed);
      this.timers.delete(delayed);
      this.delayedById.delete(jobId);
      this.activeIds.delete(jobId);
    }
    const ready = this.ready.get(name) ?? [];
    const index = ready.findIndex((job) => job.jobId === jobId);
    if (index !== -1) {
      ready.splice(index, 1);
      this.activeIds.delete(jobId);
    }
    this.notifyIfIdle();
  }

  async repeat<N extends JobName>(name: N, everyMs: number, payload: JobPayloads[N]): Promise<void> {
    if (this.closed || this.intervals.has(name)) return;
    const interval = setInterval(() => void this.add(name, payload, { jobId: `repeat:${name}` }), everyMs);
    interval.unref();
    this.intervals.set(name, interval);
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('Job queue is shut down');
  }

  /** Resolves when no job is waiting, delayed or running (tests). */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Before the database closes: running jobs finish, waiting ones are dropped (they are at-least-once work). */
  async beforeApplicationShutdown(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    for (const interval of this.intervals.values()) clearInterval(interval);
    this.timers.clear();
    this.ready.clear();
    await Promise.allSettled([...this.inFlight]);
    // Dropped jobs will never run: nobody waiting for the queue to drain should wait for them.
    this.notifyIfIdle();
  }

  private later(delayMs: number, job: PendingJob): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (job.jobId !== undefined) this.delayedById.delete(job.jobId);
      this.enqueueReady(job);
    }, Math.max(0, delayMs));
    this.timers.add(timer);
    if (job.jobId !== undefined) this.delayedById.set(job.jobId, timer);
  }

  private enqueueReady(job: PendingJob): void {
    if (this.closed) return;
    const queue = this.ready.get(job.name) ?? [];
    queue.push(job);
    this.ready.set(job.name, queue);
    this.pump(job.name);
  }

  private pump(name: JobName): void {
    const { processor, concurrency } = this.registry.get(name);
    const queue = this.ready.get(name) ?? [];
    while (!this.closed && queue.length > 0 && (this.running.get(name) ?? 0) < concurrency) {
      const job = queue.shift()!;
      this.running.set(name, (this.running.get(name) ?? 0) + 1);
      job.attemptsMade += 1;
      // Through a promise, so a processor that throws synchronously counts as a failed attempt too.
      const run = Promise.resolve()
        .then(() => processor.handle(job.payload as never, { jobId: job.jobId, attempt: job.attemptsMade }))
        .then(
          () => this.finish(job),
          (error: unknown) => this.fail(job, error),
        )
        .finally(() => {
          this.inFlight.delete(run);
          this.running.set(name, (this.running.get(name) ?? 1) - 1);
          this.pump(name);
          this.notifyIfIdle();
        });
      this.inFlight.add(run);
    }
  }

  private finish(job: PendingJob): void {
    if (job.jobId !== undefined) this.activeIds.delete(job.jobId);
  }

  private fail(job: PendingJob, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (job.attemptsMade < job.attempts && !this.closed) {
      const delay = retryDelay(job.backoff, job.attemptsMade, error);
      if (!(error instanceof RetryLaterError && error.quiet)) this.logger.warn(`Job ${job.name} attempt ${job.attemptsMade}/${job.attempts} failed: ${message}; retrying in ${delay} ms`);
      this.later(delay, job);
      return;
    }
    this.logger.error(`Job ${job.name} failed after ${job.attemptsMade} attempt(s): ${message}`);
    this.finish(job);
  }

  private isIdle(): boolean {
    return this.timers.size === 0 && this.inFlight.size === 0 && [...this.ready.values()].every((queue) => queue.length === 0);
  }

  private notifyIfIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
