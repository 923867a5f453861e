import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { JobName, JobQueue } from '#core';

const HOUR_MS = 3600 * 1000;

/** Declares the periodic jobs when a process that runs jobs starts (idempotent across processes). */
@Injectable()
export class ScheduledJobs implements OnApplicationBootstrap {
  private readonly logger = new Logger('ScheduledJobs');

  constructor(private readonly jobs: JobQueue) {}

  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.jobs.repeat(JobName.PruneIdempotencyKeys, HOUR_MS, {});
    } catch (error) {
      this.logger.warn(`Could not schedule periodic jobs: ${(error as Error).message}`);
    }
  }
}
