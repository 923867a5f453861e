import { Injectable } from '@nestjs/common';
import { Clock, isScope, type Scope, SCOPES, ValidationError } from '#core';
import { ApiKeyRepository } from './api-key.repository.js';
import { type CreatedApiKey, newApiKey } from './new-api-key.js';

export interface CreateApiKeyCommand {
  readonly name: string;
  /** null: a legacy key with full access. */
  readonly scopes: readonly string[] | null;
}

@Injectable()
export class CreateApiKeyUseCase {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateApiKeyCommand): Promise<CreatedApiKey> {
    const name = command.name.trim();
    if (name.length === 0 || name.length > 200) throw ValidationError.field('name', 'name must be 1 to 200 characters');
    let scopes: Scope[] | null = null;
    if (command.scopes !== null) {
      const unknown = command.scopes.filter((scope) => !isScope(scope));
      if (unknown.length > 0) {
        throw ValidationError.field('scopes', `Unknown scope(s) ${unknown.join(', ')}; known: ${SCOPES.join(', ')}`);
      }
      if (command.scopes.length === 0) throw ValidationError.field('scopes', 'Give at least one scope, or create a legacy key');
      scopes = [...new Set(command.scopes as Scope[])];
    }
    const created = newApiKey(name, scopes, this.clock.now());
    await this.keys.insert(created.key);
    return created;
  }
}
