import { Injectable } from '@nestjs/common';
import { isUniqueViolation, TransactionHost } from '#core';
import { AdminRepository } from '../application/admin.repository.js';
import { type Admin, AdminEmailTakenError } from '../domain/admin.js';

const COLUMNS = 'a.id, a.email, a.name, a.password_hash AS "passwordHash", a.created_at AS "createdAt", a.updated_at AS "updatedAt"';
/** The unique constraint that keeps one admin per email. */
const EMAIL_KEY = 'admins_email_key';
/** pg_advisory_xact_lock key of the admin set: hashtext('hc.admins'), fixed so that every process agrees. */
const ADMIN_SET_LOCK = "hashtext('hc.admins')";

/** Admins in PostgreSQL, plain SQL. */
@Injectable()
export class SqlAdminRepository extends AdminRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async lockAdminSet(): Promise<void> {
    if (!this.tx.inTransaction) throw new Error('lockAdminSet needs a transaction');
    await this.tx.query(`SELECT pg_advisory_xact_lock(${ADMIN_SET_LOCK})`);
  }

  async insert(a: Admin): Promise<void> {
    await this.tx
      .query('INSERT INTO admins (id, email, name, password_hash, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        a.id,
        a.email,
        a.name,
        a.passwordHash,
        a.createdAt,
        a.updatedAt,
      ])
      .catch((error: unknown) => {
        if (isUniqueViolation(error, EMAIL_KEY)) throw new AdminEmailTakenError(a.email);
        throw error;
      });
  }

  async find(id: string): Promise<Admin | null> {
    const [row] = await this.tx.query<Admin>(`SELECT ${COLUMNS} FROM admins a WHERE a.id = $1`, [id]);
    return row ?? null;
  }

  async findByEmail(email: string): Promise<Admin | null> {
    const [row] = await this.tx.query<Admin>(`SELECT ${COLUMNS} FROM admins a WHERE a.email = $1`, [email]);
    return row ?? null;
  }

  list(): Promise<Admin[]> {
    return this.tx.query<Admin>(`SELECT ${COLUMNS} FROM admins a ORDER BY a.created_at, a.id`);
  }

  async count(): Promise<number> {
    const [row] = await this.tx.query<{ count: number }>('SELECT count(*)::int AS count FROM admins');
    return row?.count ?? 0;
  }

  async updatePasswordHash(id: string, passwordHash: string, at: Date): Promise<boolean> {
    const rows = await this.tx.query<{ id: string }>('UPDATE admins SET password_hash = $2, updated_at = $3 WHERE id = $1 RETURNING id', [id, passwordHash, at]);
    return rows.length > 0;
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.tx.query<{ id: string }>('DELETE FROM admins WHERE id = $1 RETURNING id', [id]);
    return rows.length > 0;
  }
}
