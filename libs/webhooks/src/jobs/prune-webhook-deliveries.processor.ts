import { Logger } from '@nestjs/common';
import { JobName, JobProcessor, ProcessesJob } from '#core';
import { PruneWebhookDeliveriesUseCase } from '../application/prune-webhook-deliveries.use-case.js';

@ProcessesJob(JobName.PruneWebhookDeliveries, { repeatEveryMs: 3_600_000 })
export class PruneWebhookDeliveriesProcessor extends JobProcessor<JobName.PruneWebhookDeliveries> {
  private readonly logger = new Logger('PruneWebhookDeliveries');

  constructor(private readonly prune: PruneWebhookDeliveriesUseCase) {
    super();
  }

  async handle(): Promise<void> {
    const removed = await this.prune.execute();
    if (removed.deliveries + removed.events > 0) this.logger.log(`Removed ${removed.deliveries} webhook deliveries and ${removed.events} events older than 30 days`);
  }
}
