import { Module } from '@nestjs/common';
import { PruneIdempotencyKeysProcessor } from './prune-idempotency-keys.processor.js';
import { RecordKeyUsageProcessor } from './record-key-usage.processor.js';
import { ScheduledJobs } from './scheduled-jobs.js';

/** One processor per job name. Loaded by the worker, and by the API process in embedded mode. */
export const JOB_PROCESSORS = [RecordKeyUsageProcessor, PruneIdempotencyKeysProcessor];

@Module({
  providers: [...JOB_PROCESSORS, ScheduledJobs],
})
export class JobProcessorsModule {}
