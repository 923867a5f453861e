import { Injectable, Logger } from '@nestjs/common';
import { JobName, JobQueue, withTimeout } from '#core';

/** Attempts per job on the queue: the delivery row, not the queue, decides when to give up (see DeliverWebhookUseCase). */
const QUEUE_ATTEMPTS = 100_000;
const ENQUEUE_TIMEOUT_MS = 5_000;

/**
 * Puts deliveries on the job queue, one job per delivery with the delivery ID as job ID (so a delivery queued
 * twice runs once). Best effort: a delivery that cannot be queued now (Redis down) stays pending in the database
 * and the relay's sweep queues it again.
 */
@Injectable()
export class DeliveryDispatcher {
  private readonly logger = new Logger(DeliveryDispatcher.name);
  private stalled = false;

  constructor(private readonly jobs: JobQueue) {}

  /**
   * Queues a delivery that may still have a job from before (e.g. a retry scheduled before its endpoint was
   * disabled): that job is dropped first, so the new attempt runs now rather than at the old retry time.
   */
  async requeue(deliveryId: string): Promise<boolean> {
    try {
      await withTimeout(this.jobs.remove(JobName.DeliverWebhook, deliveryId), ENQUEUE_TIMEOUT_MS, 'the job queue did not answer in time');
    } catch (error) {
      this.logger.warn(`Could not drop the earlier job of delivery ${deliveryId}: ${(error as Error).message}`);
    }
    return this.enqueue([deliveryId]);
  }

  async enqueue(deliveryIds: readonly string[]): Promise<boolean> {
    if (deliveryIds.length === 0) return true;
    // While an earlier call still waits for the queue (Redis down), new ones are not stacked behind it: the
    // deliveries stay pending in the database and the sweep queues them once the queue answers again.
    if (this.stalled) return false;
    const add = this.jobs.addBulk(
      JobName.DeliverWebhook,
      deliveryIds.map((deliveryId) => ({
        payload: { deliveryId },
        options: { jobId: deliveryId, attempts: QUEUE_ATTEMPTS, backoff: { type: 'dictated' as const }, removeOnFinish: true },
      })),
    );
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([add, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('the job queue did not answer in time')), ENQUEUE_TIMEOUT_MS)))]);
      return true;
    } catch (error) {
      this.stalled = true;
      add.then(
        () => (this.stalled = false),
        () => (this.stalled = false),
      );
      this.logger.warn(`Could not queue ${deliveryIds.length} webhook deliveries (the sweep will retry): ${(error as Error).message}`);
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}
