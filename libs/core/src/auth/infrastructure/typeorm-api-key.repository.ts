import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../../database/transaction.js';
import { ApiKeyRepository } from '../application/api-key.repository.js';
import { ApiKey } from '../domain/api-key.js';
import type { Scope } from '../domain/scope.js';
import { ApiKeyOrmEntity } from './api-key.orm-entity.js';

function toDomain(row: ApiKeyOrmEntity): ApiKey {
  return new ApiKey({
    id: row.id,
    name: row.name,
    keyHash: row.keyHash,
    lastFour: row.lastFour,
    scopes: row.scopes as Scope[] | null,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  });
}

@Injectable()
export class TypeOrmApiKeyRepository extends ApiKeyRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  private get repo() {
    return this.tx.manager.getRepository(ApiKeyOrmEntity);
  }

  async insert(key: ApiKey): Promise<void> {
    await this.repo.insert({ ...key.props, scopes: key.props.scopes ? [...key.props.scopes] : null });
  }

  /** On every authenticated request: plain SQL, without the ORM's query building and entity mapping. */
  async findByHash(keyHash: string): Promise<ApiKey | null> {
    const rows = await this.tx.query<ApiKeyOrmEntity>(
      `SELECT id, name, key_hash AS "keyHash", last_four AS "lastFour", scopes, created_at AS "createdAt",
              last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"
       FROM api_keys WHERE key_hash = $1`,
      [keyHash],
    );
    return rows[0] ? toDomain(rows[0]) : null;
  }

  async list(): Promise<ApiKey[]> {
    const rows = await this.repo.find({ order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(toDomain);
  }

  count(): Promise<number> {
    return this.repo.count();
  }

  async revoke(id: string, at: Date): Promise<ApiKey | null> {
    await this.repo
      .createQueryBuilder()
      .update()
      .set({ revokedAt: () => 'COALESCE(revoked_at, :at)' })
      .where('id = :id', { id })
      .setParameter('at', at)
      .execute();
    const row = await this.repo.findOneBy({ id });
    return row ? toDomain(row) : null;
  }

  async recordUsage(id: string, usedAt: Date): Promise<void> {
    await this.repo
      .createQueryBuilder()
      .update()
      .set({ lastUsedAt: () => 'GREATEST(COALESCE(last_used_at, :usedAt), :usedAt)' })
      .where('id = :id', { id })
      .setParameter('usedAt', usedAt)
      .execute();
  }
}
