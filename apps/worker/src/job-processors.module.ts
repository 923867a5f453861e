import { Module } from '@nestjs/common';
import { TasksJobsModule } from '#tasks';
import { WebhooksJobsModule } from '#webhooks';
import { PruneIdempotencyKeysProcessor } from './prune-idempotency-keys.processor.js';
import { RecordKeyUsageProcessor } from './record-key-usage.processor.js';

/** One processor per job name. Loaded by the worker, and by the API process in embedded mode. */
export const JOB_PROCESSORS = [
  RecordKeyUsageProcessor,
  PruneIdempotencyKeysProcessor,
];

@Module({
  imports: [WebhooksJobsModule, TasksJobsModule],
  providers: [...JOB_PROCESSORS],
})
export class JobProcessorsModule {}
