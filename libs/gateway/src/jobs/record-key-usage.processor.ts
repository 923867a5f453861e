import { type JobContext, JobName, type JobPayloads, JobProcessor, ProcessesJob } from '#core';
import { RecordKeyUsageUseCase } from '../api-keys/application/record-key-usage.use-case.js';

@ProcessesJob(JobName.RecordKeyUsage, { concurrency: 4 })
export class RecordKeyUsageProcessor extends JobProcessor<JobName.RecordKeyUsage> {
  constructor(private readonly recordUsage: RecordKeyUsageUseCase) {
    super();
  }

  handle(payload: JobPayloads[JobName.RecordKeyUsage], _context: JobContext): Promise<void> {
    return this.recordUsage.execute(payload.keyId, new Date(payload.usedAt));
  }
}
