import { Injectable } from '@nestjs/common';
import type { ApiKey } from '../domain/api-key.js';
import { ApiKeyRepository } from './api-key.repository.js';

@Injectable()
export class ListApiKeysUseCase {
  constructor(private readonly keys: ApiKeyRepository) {}

  execute(): Promise<ApiKey[]> {
    return this.keys.list();
  }
}
