import type { Logger } from '@nestjs/common';
import { JobName, type JobQueue, withTimeout } from '#core';

/** Attempts of one run-task job (a retryable generation error is tried again; the last attempt records the failure). */
export const RUN_ATTEMPTS = 3;

/**
 * Queued tasks are started through the job queue; this puts one there (the job ID is the task ID). A queue that
 * does not answer is logged, not thrown: the recovery sweep queues the task again.
 */
export async function enqueueRun(jobs: JobQueue, taskId: string, logger: Logger): Promise<void> {
  const add = jobs.add(JobName.RunTask, { taskId }, { jobId: taskId, attempts: RUN_ATTEMPTS, backoff: { type: 'exponential', delayMs: 5_000 }, removeOnFinish: true });
  try {
    await withTimeout(add, 5_000, 'the job queue did not answer in time');
  } catch (error) {
    add.catch(() => undefined);
    logger.warn(`Could not queue task ${taskId} (the recovery sweep will): ${(error as Error).message}`);
  }
}
