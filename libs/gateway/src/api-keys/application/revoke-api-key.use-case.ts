import { Injectable } from '@nestjs/common';
import { Clock, NotFoundError } from '#core';
import type { ApiKey } from '../domain/api-key.js';
import { ApiKeyRepository } from './api-key.repository.js';

@Injectable()
export class RevokeApiKeyUseCase {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
  ) {}

  async execute(id: string): Promise<ApiKey> {
    const key = await this.keys.revoke(id, this.clock.now());
    if (!key) throw new NotFoundError('API key', id);
    return key;
  }
}
