import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#core';
import { type IdempotencyRecord, IdempotencyRepository, type StoredResponse } from '../application/idempotency.repository.js';

interface IdempotencyRow {
  fingerprint: string;
  responseStatus: number | null;
  responseBody: unknown;
  responseHeaders: Record<string, string> | null;
  createdAt: Date;
}

/** Idempotency keys in PostgreSQL, plain SQL. The primary key (owner, key) decides who claims a key first. */
@Injectable()
export class SqlIdempotencyRepository extends IdempotencyRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async claim(owner: string, key: string, fingerprint: string, at: Date): Promise<boolean> {
    const rows = await this.tx.query(
      `INSERT INTO idempotency_keys (owner, key, fingerprint, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING RETURNING owner`,
      [owner, key, fingerprint, at],
    );
    return rows.length > 0;
  }

  async find(owner: string, key: string): Promise<IdempotencyRecord | null> {
    const [row] = await this.tx.query<IdempotencyRow>(
      `SELECT fingerprint, response_status AS "responseStatus", response_body AS "responseBody", response_headers AS "responseHeaders",
              created_at AS "createdAt"
       FROM idempotency_keys WHERE owner = $1 AND key = $2`,
      [owner, key],
    );
    if (!row) return null;
    const response: StoredResponse | null =
      row.responseStatus === null ? null : { status: row.responseStatus, body: row.responseBody, headers: row.responseHeaders ?? {} };
    return { owner, key, fingerprint: row.fingerprint, response, createdAt: row.createdAt };
  }

  async reclaim(previous: IdempotencyRecord, fingerprint: string, at: Date): Promise<boolean> {
    const rows = await this.tx.query(
      `UPDATE idempotency_keys SET fingerprint = $4, created_at = $5, response_status = NULL, response_body = NULL, response_headers = NULL,
         completed_at = NULL
       WHERE owner = $1 AND key = $2 AND created_at = $3 RETURNING owner`,
      [previous.owner, previous.key, previous.createdAt, fingerprint, at],
    );
    return rows.length > 0;
  }

  async complete(owner: string, key: string, response: StoredResponse, at: Date): Promise<void> {
    await this.tx.query(
      `UPDATE idempotency_keys SET response_status = $3, response_body = $4::jsonb, response_headers = $5::jsonb, completed_at = $6
       WHERE owner = $1 AND key = $2`,
      [owner, key, response.status, response.body === undefined || response.body === null ? null : JSON.stringify(response.body), JSON.stringify({ ...response.headers }), at],
    );
  }

  async release(owner: string, key: string): Promise<void> {
    await this.tx.query('DELETE FROM idempotency_keys WHERE owner = $1 AND key = $2', [owner, key]);
  }

  async pruneCreatedBefore(before: Date): Promise<number> {
    const [row] = await this.tx.query<{ count: number }>(
      'WITH pruned AS (DELETE FROM idempotency_keys WHERE created_at < $1 RETURNING 1) SELECT count(*)::int AS count FROM pruned',
      [before],
    );
    return row?.count ?? 0;
  }
}
