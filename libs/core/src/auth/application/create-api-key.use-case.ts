import { Injectable } from '@nestjs/common';
import { Clock } from '../../clock/clock.js';
import { ValidationError } from '../../errors/domain-error.js';
import { newId } from '../../ids/id.js';
import { ApiKey } from '../domain/api-key.js';
import { isScope, type Scope, SCOPES } from '../domain/scope.js';
import { ApiKeyRepository } from './api-key.repository.js';

export interface CreateApiKeyCommand {
  readonly name: string;
  /** null: a legacy key with full access. */
  readonly scopes: readonly string[] | null;
}

export interface CreatedApiKey {
  readonly key: ApiKey;
  /** The plain secret: shown once, never stored. */
  readonly plain: string;
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
    const minted = ApiKey.mint();
    const key = new ApiKey({
      id: newId('key'),
      name,
      keyHash: minted.hash,
      lastFour: minted.lastFour,
      scopes,
      createdAt: this.clock.now(),
      lastUsedAt: null,
      revokedAt: null,
    });
    await this.keys.insert(key);
    return { key, plain: minted.plain };
  }
}

/** First start of an empty deployment: one full-access key, so the operator can call the API at once. */
@Injectable()
export class CreateInitialApiKeyUseCase {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly create: CreateApiKeyUseCase,
  ) {}

  /** Returns the new key, or null when keys exist already. */
  async execute(): Promise<CreatedApiKey | null> {
    if ((await this.keys.count()) > 0) return null;
    return this.create.execute({ name: 'initial full-access key', scopes: [...SCOPES] });
  }
}
