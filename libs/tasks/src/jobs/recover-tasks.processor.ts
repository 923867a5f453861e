import { Logger } from '@nestjs/common';
import { JobName, JobProcessor, ProcessesJob } from '#core';
import { RecoverTasksUseCase } from '../application/recover-tasks.use-case.js';

@ProcessesJob(JobName.RecoverTasks, { repeatEveryMs: 60_000 })
export class RecoverTasksProcessor extends JobProcessor<JobName.RecoverTasks> {
  private readonly logger = new Logger('RecoverTasks');

  constructor(private readonly recover: RecoverTasksUseCase) {
    super();
  }

  async handle(): Promise<void> {
    const count = await this.recover.execute();
    if (count > 0) this.logger.warn(`Put ${count} stalled task(s) back in the queue`);
  }
}
