import { Injectable } from '@nestjs/common';
import { ApiKeyRepository } from './api-key.repository.js';

/** Moves a key's lastUsedAt forward (the RecordKeyUsage job). */
@Injectable()
export class RecordKeyUsageUseCase {
  constructor(private readonly keys: ApiKeyRepository) {}

  execute(keyId: string, usedAt: Date): Promise<void> {
    return this.keys.recordUsage(keyId, usedAt);
  }
}
