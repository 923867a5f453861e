import { JobName, type JobContext, JobProcessor, type JobPayloads, ProcessesJob } from '#core';
import { RunTaskUseCase } from '../application/run-task.use-case.js';
import { RUN_ATTEMPTS } from '../application/task-run-queue.js';

/** AI tasks, a few at once (each mostly waits on the model). */
@ProcessesJob(JobName.RunTask, { concurrency: 4, lockDurationMs: 60_000 })
export class RunTaskProcessor extends JobProcessor<JobName.RunTask> {
  constructor(private readonly run: RunTaskUseCase) {
    super();
  }

  handle(payload: JobPayloads[JobName.RunTask], context: JobContext): Promise<void> {
    return this.run.execute(payload.taskId, context.attempt >= RUN_ATTEMPTS);
  }
}
