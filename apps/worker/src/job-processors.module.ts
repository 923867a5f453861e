import { Module } from '@nestjs/common';
import { TasksJobsModule } from '#tasks';
import { WebhooksModule } from '#webhooks';
import { DeliverWebhookProcessor } from './deliver-webhook.processor.js';
import { OutboxRelayRunner } from './outbox-relay.runner.js';
import { PruneIdempotencyKeysProcessor } from './prune-idempotency-keys.processor.js';
import { PruneWebhookDeliveriesProcessor } from './prune-webhook-deliveries.processor.js';
import { RecordKeyUsageProcessor } from './record-key-usage.processor.js';

/** One processor per job name. Loaded by the worker, and by the API process in embedded mode. */
export const JOB_PROCESSORS = [
  RecordKeyUsageProcessor,
  PruneIdempotencyKeysProcessor,
  DeliverWebhookProcessor,
  PruneWebhookDeliveriesProcessor,
];

@Module({
  imports: [WebhooksModule, TasksJobsModule],
  providers: [...JOB_PROCESSORS, OutboxRelayRunner],
})
export class JobProcessorsModule {}
