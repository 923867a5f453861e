import { Injectable } from '@nestjs/common';
import { Clock, SCOPES } from '#core';
import { ApiKeyRepository } from './api-key.repository.js';
import { type CreatedApiKey, newApiKey } from './new-api-key.js';

/** First start of an empty deployment: one full-access key, so the operator can call the API at once. */
@Injectable()
export class CreateInitialApiKeyUseCase {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
  ) {}

  /** Returns the new key, or null when keys exist already. */
  async execute(): Promise<CreatedApiKey | null> {
    if ((await this.keys.count()) > 0) return null;
    const created = newApiKey('initial full-access key', [...SCOPES], this.clock.now());
    await this.keys.insert(created.key);
    return created;
  }
}
