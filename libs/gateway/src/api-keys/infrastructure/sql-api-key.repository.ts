import { Injectable } from '@nestjs/common';
import { type Scope, TransactionHost } from '#core';
import { ApiKeyRepository } from '../application/api-key.repository.js';
import { ApiKey } from '../domain/api-key.js';

const COLUMNS = `id, name, key_hash AS "keyHash", last_four AS "lastFour", scopes, created_at AS "createdAt",
  last_used_at AS "lastUsedAt", revoked_at AS "revokedAt", expires_at AS "expiresAt", created_by AS "createdBy"`;

interface ApiKeyRow {
  id: string;
  name: string;
  keyHash: string;
  lastFour: string;
  scopes: string[] | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date | null;
  createdBy: string | null;
}

function toDomain(row: ApiKeyRow): ApiKey {
  return new ApiKey({ ...row, scopes: row.scopes as Scope[] | null });
}

/** API keys in PostgreSQL, plain SQL. */
@Injectable()
export class SqlApiKeyRepository extends ApiKeyRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(key: ApiKey): Promise<void> {
    const p = key.props;
    await this.tx.query(
      `INSERT INTO api_keys (id, name, key_hash, last_four, scopes, created_at, last_used_at, revoked_at, expires_at, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [p.id, p.name, p.keyHash, p.lastFour, p.scopes ? [...p.scopes] : null, p.createdAt, p.lastUsedAt, p.revokedAt, p.expiresAt, p.createdBy],
    );
  }

  /** On every authenticated request. */
  async findByHash(keyHash: string): Promise<ApiKey | null> {
    const [row] = await this.tx.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE key_hash = $1`, [keyHash]);
    return row ? toDomain(row) : null;
  }

  async list(): Promise<ApiKey[]> {
    const rows = await this.tx.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, id`);
    return rows.map(toDomain);
  }

  async count(): Promise<number> {
    const [row] = await this.tx.query<{ count: number }>('SELECT count(*)::int AS count FROM api_keys');
    return row?.count ?? 0;
  }

  async revoke(id: string, at: Date): Promise<{ key: ApiKey; revokedNow: boolean } | null> {
    // `before` reads (and locks) the row ahead of the update, so it tells whether this call revoked the key.
    const [row] = await this.tx.query<ApiKeyRow & { revokedNow: boolean }>(
      `WITH before AS (SELECT revoked_at AS was_revoked_at FROM api_keys WHERE id = $1 FOR UPDATE)
       UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) FROM before WHERE id = $1
       RETURNING ${COLUMNS}, before.was_revoked_at IS NULL AS "revokedNow"`,
      [id, at],
    );
    if (!row) return null;
    const { revokedNow, ...key } = row;
    return { key: toDomain(key), revokedNow };
  }

  async recordUsage(id: string, usedAt: Date): Promise<void> {
    await this.tx.query('UPDATE api_keys SET last_used_at = GREATEST(COALESCE(last_used_at, $2), $2) WHERE id = $1', [id, usedAt]);
  }
}
