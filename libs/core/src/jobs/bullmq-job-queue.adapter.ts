import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { type JobsOptions, Queue, type QueueOptions } from 'bullmq';
import { LogThrottle } from '../logging/throttled-log.js';
import { withTimeout } from '../util/with-timeout.js';
import { ALL_JOB_NAMES, type JobName, type JobPayloads } from './job-name.js';
import { DEFAULT_JOB_OPTIONS, dictatedDelay, type JobOptions, JobQueue } from './job-queue.port.js';

export const BULLMQ_QUEUE_OPTIONS = Symbol('BULLMQ_QUEUE_OPTIONS');

function jobsOptions(options: JobOptions): JobsOptions {
  const backoff = options.backoff ?? DEFAULT_JOB_OPTIONS.backoff;
  return {
    jobId: options.jobId,
    delay: options.delayMs,
    attempts: options.attempts ?? DEFAULT_JOB_OPTIONS.attempts,
    backoff: backoff.type === 'dictated' ? { type: 'dictated' } : { type: backoff.type, delay: backoff.delayMs },
    removeOnComplete: options.removeOnFinish ? true : { age: 3600, count: 1000 },
    removeOnFail: options.removeOnFinish ? true : { age: 7 * 24 * 3600 },
  };
}

/** Worker setting that makes `backoff: { type: 'dictated' }` take its delay from the RetryLaterError thrown. */
export function dictatedBackoffStrategy(_attemptsMade: number, type?: string, error?: Error): number {
  return type === 'dictated' ? dictatedDelay(error) : 1_000;
}

/**
 * Jobs on Redis through BullMQ: one queue per job name, consumed by `apps/worker` processes. The adapter owns
 * its queues so that their errors (Redis unreachable) reach the log from the first connection attempt on,
 * throttled, instead of BullMQ printing each retry to stderr.
 */
@Injectable()
export class BullmqJobQueue extends JobQueue implements OnApplicationShutdown {
  private readonly logger = new Logger('BullmqJobQueue');
  private readonly throttle = new LogThrottle();
  private readonly queues: ReadonlyMap<JobName, Queue>;

  constructor(@Inject(BULLMQ_QUEUE_OPTIONS) options: QueueOptions) {
    super();
    this.queues = new Map(
      ALL_JOB_NAMES.map((name) => {
        const queue = new Queue(name, options);
        queue.on('error', (error: Error) => {
          if (this.throttle.allow(error.message)) this.logger.warn(`Queue ${name}: ${error.message}`);
        });
        return [name, queue];
      }),
    );
  }

  /** The BullMQ queue of a job name (the worker's processors are bound to these). */
  queue(name: JobName): Queue {
    return this.queues.get(name)!;
  }

  async add<N extends JobName>(name: N, payload: JobPayloads[N], options: JobOptions = {}): Promise<void> {
    await this.queue(name).add(name, payload, jobsOptions(options));
  }

  async addBulk<N extends JobName>(name: N, jobs: ReadonlyArray<{ payload: JobPayloads[N]; options?: JobOptions }>): Promise<void> {
    if (jobs.length === 0) return;
    await this.queue(name).addBulk(jobs.map((job) => ({ name, data: job.payload, opts: jobsOptions(job.options ?? {}) })));
  }

  async remove(name: JobName, jobId: string): Promise<void> {
    // 0 when the job is running (locked) or gone: nothing to do either way.
    await this.queue(name).remove(jobId);
  }

  async repeat<N extends JobName>(name: N, everyMs: number, payload: JobPayloads[N]): Promise<void> {
    await this.queue(name).upsertJobScheduler(name, { every: everyMs }, { name, data: payload });
  }

  async ping(): Promise<void> {
    await withTimeout(this.queue(ALL_JOB_NAMES[0]!).count(), 2_000, 'Redis did not answer within 2 s');
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.queues.values()].map((queue) => queue.close()));
  }
}
