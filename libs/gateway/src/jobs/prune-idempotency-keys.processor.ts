import { Logger } from '@nestjs/common';
import { JobName, JobProcessor, ProcessesJob } from '#core';
import { PruneIdempotencyKeysUseCase } from '../idempotency/application/prune-idempotency-keys.use-case.js';

@ProcessesJob(JobName.PruneIdempotencyKeys, { repeatEveryMs: 3_600_000 })
export class PruneIdempotencyKeysProcessor extends JobProcessor<JobName.PruneIdempotencyKeys> {
  private readonly logger = new Logger('PruneIdempotencyKeys');

  constructor(private readonly prune: PruneIdempotencyKeysUseCase) {
    super();
  }

  async handle(): Promise<void> {
    const removed = await this.prune.execute();
    if (removed > 0) this.logger.log(`Removed ${removed} expired Idempotency-Key record(s)`);
  }
}
