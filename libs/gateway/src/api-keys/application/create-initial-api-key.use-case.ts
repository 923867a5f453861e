import { Injectable } from '@nestjs/common';
import { AuditLog, Clock, SCOPES, SYSTEM_ACTOR, UnitOfWork } from '#core';
import { ApiKeyRepository } from './api-key.repository.js';
import { type CreatedApiKey, keyAuditDetails, newApiKey } from './new-api-key.js';

/** First start of an empty deployment: one full-access key, so the operator can call the API at once. */
@Injectable()
export class CreateInitialApiKeyUseCase {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly audit: AuditLog,
  ) {}

  /** Returns the new key, or null when keys exist already. Created by the system, and recorded as such. */
  async execute(): Promise<CreatedApiKey | null> {
    if ((await this.keys.count()) > 0) return null;
    const created = newApiKey('initial full-access key', [...SCOPES], this.clock.now(), { expiresAt: null, createdBy: 'system' });
    await this.uow.run(async () => {
      await this.keys.insert(created.key);
      await this.audit.record(SYSTEM_ACTOR, { action: 'api_key.created', targetType: 'api_key', targetId: created.key.id, details: keyAuditDetails(created.key) });
    });
    return created;
  }
}
