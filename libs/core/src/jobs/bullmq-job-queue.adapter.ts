import { getQueueToken } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { ALL_JOB_NAMES, type JobName, type JobPayloads } from './job-name.js';
import { withTimeout } from '../util/with-timeout.js';
import { DEFAULT_JOB_OPTIONS, type JobOptions, JobQueue } from './job-queue.port.js';

/** Jobs on Redis through BullMQ: one queue per job name, consumed by `apps/worker` processes. */
@Injectable()
export class BullmqJobQueue extends JobQueue {
  private readonly queues = new Map<JobName, Queue>();

  constructor(private readonly moduleRef: ModuleRef) {
    super();
  }

  async add<N extends JobName>(name: N, payload: JobPayloads[N], options: JobOptions = {}): Promise<void> {
    const backoff = options.backoff ?? DEFAULT_JOB_OPTIONS.backoff;
    await this.queue(name).add(name, payload, {
      jobId: options.jobId,
      delay: options.delayMs,
      attempts: options.attempts ?? DEFAULT_JOB_OPTIONS.attempts,
      backoff: { type: backoff.type, delay: backoff.delayMs },
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    });
  }

  async repeat<N extends JobName>(name: N, everyMs: number, payload: JobPayloads[N]): Promise<void> {
    await this.queue(name).upsertJobScheduler(name, { every: everyMs }, { name, data: payload });
  }

  async ping(): Promise<void> {
    await withTimeout(this.queue(ALL_JOB_NAMES[0]!).count(), 2_000, 'Redis did not answer within 2 s');
  }

  private queue(name: JobName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
      this.queues.set(name, queue);
    }
    return queue;
  }
}
