import { Injectable } from '@nestjs/common';
import { ConflictError, isUniqueViolation, type KeysetQuery, type KeysetSlice, readKeysetRows, TransactionHost } from '#core';
import { type FeedbackFilter, FeedbackRepository, type FeedbackSummary, HelpCenterUserRepository } from '../application/feedback.repository.js';
import type { FeedbackEntry, HelpCenterUser } from '../domain/feedback.js';

const USER_COLUMNS = 'u.id, u.helpdesk_id AS "helpdeskId", u.email, u.name, u.created_at AS "createdAt", u.updated_at AS "updatedAt"';

function emailTaken(error: unknown, email: string): never {
  if (isUniqueViolation(error, 'help_center_users_helpdesk_id_email_key')) throw new ConflictError(`A help center user with the email ${email} already exists`);
  throw error;
}

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

  async list(query: KeysetQuery): Promise<KeysetSlice<HelpCenterUser>> {
    return readKeysetRows<HelpCenterUser>(this.tx, { select: `SELECT ${USER_COLUMNS} FROM help_center_users u`, alias: 'u', columns: { created_desc: 'u.created_at' } }, query);
  }
}

interface FeedbackRow extends Omit<FeedbackEntry, 'user'> {
  userId: string | null;
  userName: string | null;
  userEmail: string | null;
}

// The user is matched when read: the help center user of the same helpdesk with the entry's email.
const FEEDBACK_SELECT = `SELECT f.id, f.article_id AS "articleId", f.article_title AS "articleTitle", f.type, f.feedback, f.email, f.resolved,
    f.created_at AS "createdAt", f.updated_at AS "updatedAt", u.id AS "userId", u.name AS "userName", u.email AS "userEmail"
  FROM feedback f LEFT JOIN help_center_users u ON u.helpdesk_id = f.helpdesk_id AND u.email = f.email`;

function entryOf({ userId, userName, userEmail, ...row }: FeedbackRow): FeedbackEntry {
  return { ...row, user: userId ? { id: userId, name: userName, email: userEmail! } : null };
}

@Injectable()
export class SqlFeedbackRepository extends FeedbackRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(f: Omit<FeedbackEntry, 'user'> & { helpdeskId: string }): Promise<void> {
    await this.tx.query(
      `INSERT INTO feedback (id, helpdesk_id, article_id, article_title, type, feedback, email, resolved, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [f.id, f.helpdeskId, f.articleId, f.articleTitle, f.type, f.feedback, f.email, f.resolved, f.createdAt, f.updatedAt],
    );
  }

  async find(id: string, options: { forUpdate?: boolean } = {}): Promise<FeedbackEntry | null> {
    const [row] = await this.tx.query<FeedbackRow>(`${FEEDBACK_SELECT} WHERE f.id = $1${options.forUpdate ? ' FOR UPDATE OF f' : ''}`, [id]);
    return row ? entryOf(row) : null;
  }

  async list(query: KeysetQuery, filter: FeedbackFilter): Promise<KeysetSlice<FeedbackEntry>> {
    const conditions: string[] = [];
    const params: unknown[] = [];
    for (const [column, value] of [['f.article_id', filter.articleId], ['f.type', filter.type], ['f.resolved', filter.resolved]] as const) {
      if (value === undefined) continue;
      params.push(value);
      conditions.push(`${column} = $${params.length}`);
    }
    const slice = await readKeysetRows<FeedbackRow>(this.tx, { select: FEEDBACK_SELECT, alias: 'f', conditions, params, columns: { created_desc: 'f.created_at' } }, query);
    return { rows: slice.rows.map(entryOf), hasMore: slice.hasMore };
  }

  async setResolved(id: string, resolved: boolean, at: Date): Promise<void> {
    await this.tx.query('UPDATE feedback SET resolved = $2, updated_at = $3 WHERE id = $1', [id, resolved, at]);
  }

  async summary(articleId: string): Promise<FeedbackSummary> {
    const [row] = await this.tx.query<{ positive: number; negative: number; unresolved: number }>(
      `SELECT count(*) FILTER (WHERE type = 'positive')::int AS positive, count(*) FILTER (WHERE type = 'negative')::int AS negative,
         count(*) FILTER (WHERE NOT resolved)::int AS unresolved
       FROM feedback WHERE article_id = $1`,
      [articleId],
    );
    return row!;
  }
}
