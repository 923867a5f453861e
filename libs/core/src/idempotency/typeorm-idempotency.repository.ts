import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../database/transaction.js';
import { IdempotencyKeyOrmEntity } from './idempotency-key.orm-entity.js';
import { type IdempotencyRecord, IdempotencyRepository, type StoredResponse } from './idempotency.repository.js';

@Injectable()
export class TypeOrmIdempotencyRepository extends IdempotencyRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  private get repo() {
    return this.tx.manager.getRepository(IdempotencyKeyOrmEntity);
  }

  async claim(owner: string, key: string, fingerprint: string, at: Date): Promise<boolean> {
    const rows: unknown[] = await this.tx.manager.query(
      `INSERT INTO idempotency_keys (owner, key, fingerprint, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING RETURNING owner`,
      [owner, key, fingerprint, at],
    );
    return rows.length > 0;
  }

  async find(owner: string, key: string): Promise<IdempotencyRecord | null> {
    const row = await this.repo.findOneBy({ owner, key });
    if (!row) return null;
    const response: StoredResponse | null =
      row.responseStatus === null ? null : { status: row.responseStatus, body: row.responseBody, headers: row.responseHeaders ?? {} };
    return { owner, key, fingerprint: row.fingerprint, response, createdAt: row.createdAt };
  }

  async reclaim(previous: IdempotencyRecord, fingerprint: string, at: Date): Promise<boolean> {
    const result = await this.repo
      .createQueryBuilder()
      .update()
      .set({ fingerprint, createdAt: at, responseStatus: null, responseBody: () => "NULL", responseHeaders: () => "NULL", completedAt: null })
      .where('owner = :owner AND key = :key AND created_at = :createdAt', {
        owner: previous.owner,
        key: previous.key,
        createdAt: previous.createdAt,
      })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async complete(owner: string, key: string, response: StoredResponse, at: Date): Promise<void> {
    await this.repo.update(
      { owner, key },
      { responseStatus: response.status, responseBody: (response.body ?? null) as object, responseHeaders: { ...response.headers }, completedAt: at },
    );
  }

  async release(owner: string, key: string): Promise<void> {
    await this.repo.delete({ owner, key });
  }

  async pruneCreatedBefore(before: Date): Promise<number> {
    const result = await this.repo.createQueryBuilder().delete().where('created_at < :before', { before }).execute();
    return result.affected ?? 0;
  }
}
