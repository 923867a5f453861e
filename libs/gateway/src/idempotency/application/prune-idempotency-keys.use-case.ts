import { Injectable } from '@nestjs/common';
import { Clock } from '#core';
import { IDEMPOTENCY_RETENTION_MS, IdempotencyRepository } from './idempotency.repository.js';

/** Deletes Idempotency-Key records past their 24 h retention. */
@Injectable()
export class PruneIdempotencyKeysUseCase {
  constructor(
    private readonly records: IdempotencyRepository,
    private readonly clock: Clock,
  ) {}

  execute(): Promise<number> {
    return this.records.pruneCreatedBefore(new Date(this.clock.now().getTime() - IDEMPOTENCY_RETENTION_MS));
  }
}
