import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#core';
import { type SetupToken, SetupTokenRepository } from '../application/setup-token.repository.js';

const COLUMNS = 'token_hash AS "tokenHash", created_at AS "createdAt", expires_at AS "expiresAt", used_at AS "usedAt"';

/** Setup links in PostgreSQL (their tokens' SHA-256), plain SQL. */
@Injectable()
export class SqlSetupTokenRepository extends SetupTokenRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(t: SetupToken): Promise<void> {
    await this.tx.query('INSERT INTO admin_setup_tokens (token_hash, created_at, expires_at, used_at) VALUES ($1, $2, $3, $4)', [t.tokenHash, t.createdAt, t.expiresAt, t.usedAt]);
  }

  async findUsable(tokenHash: string, now: Date): Promise<SetupToken | null> {
    const [row] = await this.tx.query<SetupToken>(`SELECT ${COLUMNS} FROM admin_setup_tokens WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2`, [tokenHash, now]);
    return row ?? null;
  }

  async anyUsable(now: Date): Promise<boolean> {
    const rows = await this.tx.query('SELECT 1 FROM admin_setup_tokens WHERE used_at IS NULL AND expires_at > $1 LIMIT 1', [now]);
    return rows.length > 0;
  }

  async markUsed(tokenHash: string, now: Date, adminId: string): Promise<boolean> {
    const rows = await this.tx.query(
      'UPDATE admin_setup_tokens SET used_at = $2, used_by = $3 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING token_hash',
      [tokenHash, now, adminId],
    );
    return rows.length > 0;
  }
}
