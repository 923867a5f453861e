import { Injectable } from '@nestjs/common';
import { type AuditActor, AuditLog, Clock, NotFoundError, UnitOfWork } from '#core';
import type { ApiKey } from '../domain/api-key.js';
import { ApiKeyRepository } from './api-key.repository.js';
import { keyAuditDetails } from './new-api-key.js';

/**
 * Revokes a key: the next request with it gets 401, on every API process (keys are read from the database on
 * each request). Revoking a revoked key changes nothing and records nothing.
 */
@Injectable()
export class RevokeApiKeyUseCase {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly audit: AuditLog,
  ) {}

  async execute(id: string, actor: AuditActor): Promise<ApiKey> {
    return this.uow.run(async () => {
      const revoked = await this.keys.revoke(id, this.clock.now());
      if (!revoked) throw new NotFoundError('API key', id);
      if (revoked.revokedNow) {
        await this.audit.record(actor, { action: 'api_key.revoked', targetType: 'api_key', targetId: id, details: keyAuditDetails(revoked.key) });
      }
      return revoked.key;
    });
  }
}
