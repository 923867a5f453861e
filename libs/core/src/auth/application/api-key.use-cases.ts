import { Injectable } from '@nestjs/common';
import { Clock } from '../../clock/clock.js';
import { NotFoundError, UnauthorizedError, ValidationError } from '../../errors/domain-error.js';
import { newId } from '../../ids/id.js';
import { ApiKey } from '../domain/api-key.js';
import { Principal } from '../domain/principal.js';
import { isScope, type Scope, SCOPES } from '../domain/scope.js';
import { ApiKeyRepository } from './api-key.repository.js';
import { KeyUsageRecorder } from './key-usage.recorder.js';

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

@Injectable()
export class ListApiKeysUseCase {
  constructor(private readonly keys: ApiKeyRepository) {}

  execute(): Promise<ApiKey[]> {
    return this.keys.list();
  }
}

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

@Injectable()
export class AuthenticateApiKeyUseCase {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly usage: KeyUsageRecorder,
    private readonly clock: Clock,
  ) {}

  /** Resolves a bearer token to its principal; every failure is the same 401, so keys cannot be probed. */
  async execute(token: string | undefined): Promise<Principal> {
    if (!token) throw new UnauthorizedError('missing');
    if (!ApiKey.looksValid(token)) throw new UnauthorizedError('invalid');
    const key = await this.keys.findByHash(ApiKey.hash(token));
    if (!key || key.revoked) throw new UnauthorizedError('invalid');
    this.usage.record(key.id, this.clock.now());
    return new Principal(key.id, key.props.scopes);
  }
}

@Injectable()
export class RecordKeyUsageUseCase {
  constructor(private readonly keys: ApiKeyRepository) {}

  execute(keyId: string, usedAt: Date): Promise<void> {
    return this.keys.recordUsage(keyId, usedAt);
  }
}
