import { Injectable } from '@nestjs/common';
import { isUniqueViolation, type KeysetQuery, type KeysetSlice, readKeysetRows, TransactionHost } from '#core';
import { HelpCenterUserRepository } from '../application/help-center-user.repository.js';
import { type HelpCenterUser, HelpCenterUserEmailTakenError } from '../domain/feedback.js';

const USER_COLUMNS = 'u.id, u.helpdesk_id AS "helpdeskId", u.email, u.name, u.created_at AS "createdAt", u.updated_at AS "updatedAt"';
/** The unique index that keeps one user per email in a helpdesk. */
const EMAIL_KEY = 'help_center_users_helpdesk_id_email_key';

function emailTaken(error: unknown, email: string): never {
  if (isUniqueViolation(error, EMAIL_KEY)) throw new HelpCenterUserEmailTakenError(email);
  throw error;
}

/** Help center users in PostgreSQL, plain SQL. */
@Injectable()
export class SqlHelpCenterUserRepository extends HelpCenterUserRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(u: HelpCenterUser): Promise<void> {
    await this.tx
      .query('INSERT INTO help_center_users (id, helpdesk_id, email, name, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        u.id,
        u.helpdeskId,
        u.email,
        u.name,
        u.createdAt,
        u.updatedAt,
      ])
      .catch((error: unknown) => emailTaken(error, u.email));
  }

  async update(u: HelpCenterUser): Promise<void> {
    await this.tx
      .query('UPDATE help_center_users SET email = $2, name = $3, updated_at = $4 WHERE id = $1', [u.id, u.email, u.name, u.updatedAt])
      .catch((error: unknown) => emailTaken(error, u.email));
  }

  async find(id: string): Promise<HelpCenterUser | null> {
    const [row] = await this.tx.query<HelpCenterUser>(`SELECT ${USER_COLUMNS} FROM help_center_users u WHERE u.id = $1`, [id]);
    return row ?? null;
  }

  async findForUpdate(id: string): Promise<HelpCenterUser | null> {
    const [row] = await this.tx.query<HelpCenterUser>(`SELECT ${USER_COLUMNS} FROM help_center_users u WHERE u.id = $1 FOR UPDATE`, [id]);
    return row ?? null;
  }

  async list(query: KeysetQuery): Promise<KeysetSlice<HelpCenterUser>> {
    return readKeysetRows<HelpCenterUser>(this.tx, { select: `SELECT ${USER_COLUMNS} FROM help_center_users u`, alias: 'u', columns: { created_desc: 'u.created_at' } }, query);
  }
}
