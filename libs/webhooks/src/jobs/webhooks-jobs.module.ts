import { Module } from '@nestjs/common';
import { WebhooksModule } from '../webhooks.module.js';
import { DeliverWebhookProcessor } from './deliver-webhook.processor.js';
import { OutboxRelayRunner } from './outbox-relay.runner.js';
import { PruneWebhookDeliveriesProcessor } from './prune-webhook-deliveries.processor.js';

/**
 * What a process that runs jobs needs of webhooks: the delivery and pruning processors, and the outbox relay
 * (woken by the outbox, swept periodically).
 */
@Module({
  imports: [WebhooksModule],
  providers: [DeliverWebhookProcessor, PruneWebhookDeliveriesProcessor, OutboxRelayRunner],
})
export class WebhooksJobsModule {}
