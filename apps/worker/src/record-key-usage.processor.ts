import { type JobContext, JobName, type JobPayloads, JobProcessor, ProcessesJob, RecordKeyUsageUseCase } from '#core';

@ProcessesJob(JobName.RecordKeyUsage, { concurrency: 4 })
export class RecordKeyUsageProcessor extends JobProcessor<JobName.RecordKeyUsage> {
  constructor(private readonly recordUsage: RecordKeyUsageUseCase) {
    super();
  }

  handle(payload: JobPayloads[JobName.RecordKeyUsage], _context: JobContext): Promise<void> {
    return this.recordUsage.execute(payload.keyId, new Date(payload.usedAt));
  }
}
