import { JobName, JobProcessor, ProcessesJob } from '#core';
import { PruneAdminSessionsUseCase } from '../application/prune-admin-sessions.use-case.js';

@ProcessesJob(JobName.PruneAdminSessions, { repeatEveryMs: 3_600_000 })
export class PruneAdminSessionsProcessor extends JobProcessor<JobName.PruneAdminSessions> {
  constructor(private readonly prune: PruneAdminSessionsUseCase) {
    super();
  }

  handle(): Promise<void> {
    return this.prune.execute();
  }
}
