import { Injectable } from '@nestjs/common';
import { type AuditActor, AuditLog, Clock, isScope, type Scope, SCOPES, UnitOfWork, ValidationError } from '#core';
import { ApiKey } from '../domain/api-key.js';
import { ApiKeyRepository } from './api-key.repository.js';
import { actorName, type CreatedApiKey, keyAuditDetails, newApiKey } from './new-api-key.js';

export interface CreateApiKeyCommand {
  readonly name: string;
  /** null: a legacy key with full access. */
  readonly scopes: readonly string[] | null;
  /** Optional expiry, in the future; after it the key gets 401 like a revoked one. */
  readonly expiresAt?: Date | null;
}

/** Creates a key for `actor` (recorded as its creator and in the audit log, in the same transaction). */
@Injectable()
export class CreateApiKeyUseCase {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly audit: AuditLog,
  ) {}

  async execute(command: CreateApiKeyCommand, actor: AuditActor): Promise<CreatedApiKey> {
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
    const now = this.clock.now();
    const expiresAt = ApiKey.checkExpiry(command.expiresAt ?? null, now);
    const created = newApiKey(name, scopes, now, { expiresAt, createdBy: actorName(actor) });
    await this.uow.run(async () => {
      await this.keys.insert(created.key);
      await this.audit.record(actor, { action: 'api_key.created', targetType: 'api_key', targetId: created.key.id, details: keyAuditDetails(created.key) });
    });
    return created;
  }
}
