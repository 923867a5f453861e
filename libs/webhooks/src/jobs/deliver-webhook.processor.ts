import { JobName, JobProcessor, type JobPayloads, ProcessesJob } from '#core';
import { DeliverWebhookUseCase } from '../application/deliver-webhook.use-case.js';

/**
 * One attempt per job. Many at once: a delivery mostly waits on the network, and each endpoint has its own cap
 * (WEBHOOK_ENDPOINT_CONCURRENCY), so one slow receiver cannot hold every slot. A job whose worker died is taken
 * over after about 15 s (its lock lapses).
 */
@ProcessesJob(JobName.DeliverWebhook, { concurrency: 100, lockDurationMs: 15_000 })
export class DeliverWebhookProcessor extends JobProcessor<JobName.DeliverWebhook> {
  constructor(private readonly deliver: DeliverWebhookUseCase) {
    super();
  }

  handle(payload: JobPayloads[JobName.DeliverWebhook]): Promise<void> {
    return this.deliver.execute(payload.deliveryId);
  }
}
