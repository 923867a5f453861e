import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#core';
import { AdminSessionRepository } from '../application/admin-session.repository.js';
import type { Admin } from '../domain/admin.js';
import type { AdminSession } from '../domain/admin-session.js';

const COLUMNS = `s.id, s.admin_id AS "adminId", s.token_hash AS "tokenHash", s.csrf_token AS "csrfToken", s.ip, s.user_agent AS "userAgent",
  s.created_at AS "createdAt", s.last_seen_at AS "lastSeenAt", s.expires_at AS "expiresAt"`;

interface SessionWithAdminRow extends AdminSession {
  adminEmail: string;
  adminName: string;
  adminPasswordHash: string;
  adminCreatedAt: Date;
  adminUpdatedAt: Date;
}

/** Admin sessions in PostgreSQL, plain SQL. */
@Injectable()
export class SqlAdminSessionRepository extends AdminSessionRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(s: AdminSession): Promise<void> {
    await this.tx.query(
      `INSERT INTO admin_sessions (id, admin_id, token_hash, csrf_token, ip, user_agent, created_at, last_seen_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [s.id, s.adminId, s.tokenHash, s.csrfToken, s.ip, s.userAgent, s.createdAt, s.lastSeenAt, s.expiresAt],
    );
  }

  /** On every settings request. */
  async findByTokenHash(tokenHash: string): Promise<{ session: AdminSession; admin: Admin } | null> {
    const [row] = await this.tx.query<SessionWithAdminRow>(
      `SELECT ${COLUMNS}, a.email AS "adminEmail", a.name AS "adminName", a.password_hash AS "adminPasswordHash",
              a.created_at AS "adminCreatedAt", a.updated_at AS "adminUpdatedAt"
         FROM admin_sessions s JOIN admins a ON a.id = s.admin_id
        WHERE s.token_hash = $1`,
      [tokenHash],
    );
    if (!row) return null;
    const { adminEmail, adminName, adminPasswordHash, adminCreatedAt, adminUpdatedAt, ...session } = row;
    return {
      session,
      admin: { id: session.adminId, email: adminEmail, name: adminName, passwordHash: adminPasswordHash, createdAt: adminCreatedAt, updatedAt: adminUpdatedAt },
    };
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.tx.query('UPDATE admin_sessions SET last_seen_at = $2 WHERE id = $1 AND last_seen_at < $2', [id, at]);
  }

  listForAdmin(adminId: string): Promise<AdminSession[]> {
    return this.tx.query<AdminSession>(`SELECT ${COLUMNS} FROM admin_sessions s WHERE s.admin_id = $1 ORDER BY s.created_at DESC, s.id DESC`, [adminId]);
  }

  async delete(id: string): Promise<boolean> {
    return (await this.tx.query('DELETE FROM admin_sessions WHERE id = $1 RETURNING id', [id])).length > 0;
  }

  async deleteForAdmin(adminId: string, id: string): Promise<boolean> {
    return (await this.tx.query('DELETE FROM admin_sessions WHERE id = $1 AND admin_id = $2 RETURNING id', [id, adminId])).length > 0;
  }

  async deleteAllForAdmin(adminId: string, exceptId?: string): Promise<number> {
    const rows = await this.tx.query('DELETE FROM admin_sessions WHERE admin_id = $1 AND id IS DISTINCT FROM $2 RETURNING id', [adminId, exceptId ?? null]);
    return rows.length;
  }

  async deleteExpired(now: Date, idleMs: number): Promise<void> {
    await this.tx.query('DELETE FROM admin_sessions WHERE expires_at <= $1 OR last_seen_at <= $2', [now, new Date(now.getTime() - idleMs)]);
  }
}
