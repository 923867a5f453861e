import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { JobName, JobQueue } from '#core';

const HOUR_MS = 3600 * 1000;

/** Declares the periodic jobs when a process that runs jobs starts (idempotent across processes). */
@Injectable()
export class ScheduledJobs implements OnApplicationBootstrap {
  private readonly logger = new Logger('ScheduledJobs');

  constructor(private readonly jobs: JobQueue) {}

  /** Not awaited: with Redis down the schedule is declared once it is back, and start-up does not wait for it. */
  onApplicationBootstrap(): void {
    Promise.all([
      this.jobs.repeat(JobName.PruneIdempotencyKeys, HOUR_MS, {}),
      this.jobs.repeat(JobName.PruneWebhookDeliveries, HOUR_MS, {}),
      this.jobs.repeat(JobName.RecoverTasks, 60_000, {}),
    ]).catch((error: unknown) => {
      this.logger.warn(`Could not schedule periodic jobs: ${(error as Error).message}`);
    });
  }
}
