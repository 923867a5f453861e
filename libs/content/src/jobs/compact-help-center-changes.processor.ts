import { JobName, JobProcessor, ProcessesJob } from '#core';
import { CompactHelpCenterChangesUseCase } from '../help-center/application/compact-help-center-changes.use-case.js';

@ProcessesJob(JobName.CompactHelpCenterChanges, { repeatEveryMs: 60_000 })
export class CompactHelpCenterChangesProcessor extends JobProcessor<JobName.CompactHelpCenterChanges> {
  constructor(private readonly compact: CompactHelpCenterChangesUseCase) {
    super();
  }

  async handle(): Promise<void> {
    await this.compact.execute();
  }
}
