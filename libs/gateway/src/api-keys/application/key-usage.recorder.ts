import { Injectable, Logger } from '@nestjs/common';
import { JobName, JobQueue } from '#core';

const RESOLUTION_MS = 60_000;

/**
 * Records that a key was used, off the request path: at most one job per key and minute
 * (lastUsedAt is precise to the minute), deduplicated across processes by job ID.
 */
@Injectable()
export class KeyUsageRecorder {
  private readonly logger = new Logger('KeyUsageRecorder');
  private readonly lastBucket = new Map<string, number>();

  constructor(private readonly jobs: JobQueue) {}

  record(keyId: string, at: Date): void {
    const bucket = Math.floor(at.getTime() / RESOLUTION_MS);
    if (this.lastBucket.get(keyId) === bucket) return;
    this.lastBucket.set(keyId, bucket);
    if (this.lastBucket.size > 10_000) this.lastBucket.clear();
    this.jobs
      .add(JobName.RecordKeyUsage, { keyId, usedAt: at.toISOString() }, { jobId: `key-usage-${keyId}-${bucket}` })
      .catch((error: unknown) => {
        this.lastBucket.delete(keyId);
        this.logger.warn(`Could not queue key usage: ${(error as Error).message}`);
      });
  }
}
