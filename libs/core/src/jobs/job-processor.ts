import { applyDecorators, Injectable, Logger, SetMetadata } from '@nestjs/common';
import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { LogThrottle } from '../logging/throttled-log.js';
import { dictatedBackoffStrategy } from './bullmq-job-queue.adapter.js';
import type { JobName, JobPayloads } from './job-name.js';
import { RetryLaterError } from './job-queue.port.js';

const logger = new Logger('JobProcessor');
const throttle = new LogThrottle();

export interface JobContext {
  readonly jobId: string | undefined;
  /** 1 for the first attempt. */
  readonly attempt: number;
}

export const JOB_NAME_METADATA = 'help-center:job-name';
export const JOB_CONCURRENCY_METADATA = 'help-center:job-concurrency';
export const JOB_REPEAT_METADATA = 'help-center:job-repeat-every-ms';

/**
 * Base of every processor: one class per job name, calling one use case. The same instance runs under a
 * BullMQ worker (REDIS_URL set) or under the in-process queue (embedded mode).
 */
export abstract class JobProcessor<N extends JobName = JobName> extends WorkerHost {
  abstract handle(payload: JobPayloads[N], context: JobContext): Promise<void>;

  override process(job: Job<JobPayloads[N]>): Promise<void> {
    return this.handle(job.data, { jobId: job.id, attempt: job.attemptsMade + 1 });
  }

  /** BullMQ worker errors (mostly Redis unreachable) go to the log, throttled; unhandled they would crash the process. */
  @OnWorkerEvent('error')
  onWorkerError(error: Error): void {
    if (throttle.allow(`${this.constructor.name}:${error.message}`)) logger.warn(`${this.constructor.name} worker: ${error.message}`);
  }

  @OnWorkerEvent('failed')
  onJobFailed(job: Job | undefined, error: Error): void {
    if (!job || (error instanceof RetryLaterError && error.quiet)) return;
    const final = job.attemptsMade >= (job.opts.attempts ?? 1);
    const message = `Job ${job.name} ${job.id ?? ''} attempt ${job.attemptsMade} failed${final ? ' (giving up)' : ''}: ${error.message}`;
    if (final) logger.error(message);
    else logger.warn(message);
  }
}

export interface ProcessesJobOptions {
  /** Jobs of this name run at once per process. */
  readonly concurrency?: number;
  /**
   * How long a running job's lock lasts without renewal (BullMQ renews it at half time while the job runs). A
   * job whose process died is taken over after about this long plus the stalled-check interval.
   */
  readonly lockDurationMs?: number;
  /**
   * A periodic job: every process that runs jobs declares the schedule at start (idempotent across processes;
   * the job itself runs once per period, wherever a worker takes it). Its payload is `{}`.
   */
  readonly repeatEveryMs?: number;
}

/** Declares the job a processor handles, and how many of them may run at once per process. */
export function ProcessesJob(name: JobName, { concurrency = 1, lockDurationMs = 30_000, repeatEveryMs }: ProcessesJobOptions = {}): ClassDecorator {
  return applyDecorators(
    Injectable(),
    Processor(name, {
      concurrency,
      lockDuration: lockDurationMs,
      stalledInterval: Math.min(30_000, lockDurationMs),
      // A job whose worker died is put back rather than failed (deliveries must survive a kill -9).
      maxStalledCount: 10,
      settings: { backoffStrategy: dictatedBackoffStrategy },
    }),
    SetMetadata(JOB_NAME_METADATA, name),
    SetMetadata(JOB_CONCURRENCY_METADATA, concurrency),
    SetMetadata(JOB_REPEAT_METADATA, repeatEveryMs),
  );
}
