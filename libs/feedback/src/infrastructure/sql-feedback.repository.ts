import { Injectable } from '@nestjs/common';
import { type KeysetQuery, type KeysetSlice, readKeysetRows, TransactionHost } from '#core';
import { type FeedbackFilter, FeedbackRepository, type FeedbackSummary } from '../application/feedback.repository.js';
import type { FeedbackEntry } from '../domain/feedback.js';

interface FeedbackRow extends Omit<FeedbackEntry, 'user'> {
  userId: string | null;
  userName: string | null;
  userEmail: string | null;
}

const FEEDBACK_COLUMNS = `f.id, f.article_id AS "articleId", f.article_title AS "articleTitle", f.type, f.feedback, f.email, f.resolved,
  f.created_at AS "createdAt", f.updated_at AS "updatedAt", u.id AS "userId", u.name AS "userName", u.email AS "userEmail"`;
/** The user is matched when read: the help center user of the same helpdesk with the entry's email. */
const USER_JOIN = 'LEFT JOIN help_center_users u ON u.helpdesk_id = f.helpdesk_id AND u.email = f.email';
const FEEDBACK_SELECT = `SELECT ${FEEDBACK_COLUMNS} FROM feedback f ${USER_JOIN}`;

function entryOf({ userId, userName, userEmail, ...row }: FeedbackRow): FeedbackEntry {
  return { ...row, user: userId ? { id: userId, name: userName, email: userEmail! } : null };
}

/** Feedback entries in PostgreSQL, plain SQL. */
@Injectable()
export class SqlFeedbackRepository extends FeedbackRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(f: Omit<FeedbackEntry, 'user'> & { helpdeskId: string }): Promise<FeedbackEntry> {
    const [row] = await this.tx.query<FeedbackRow>(
      `WITH f AS (
         INSERT INTO feedback (id, helpdesk_id, article_id, article_title, type, feedback, email, resolved, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *)
       SELECT ${FEEDBACK_COLUMNS} FROM f ${USER_JOIN}`,
      [f.id, f.helpdeskId, f.articleId, f.articleTitle, f.type, f.feedback, f.email, f.resolved, f.createdAt, f.updatedAt],
    );
    return entryOf(row!);
  }

  async findForUpdate(id: string): Promise<FeedbackEntry | null> {
    const [row] = await this.tx.query<FeedbackRow>(`${FEEDBACK_SELECT} WHERE f.id = $1 FOR UPDATE OF f`, [id]);
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
    const [row] = await this.tx.query<FeedbackSummary>(
      `SELECT count(*) FILTER (WHERE type = 'positive')::int AS positive, count(*) FILTER (WHERE type = 'negative')::int AS negative,
         count(*) FILTER (WHERE NOT resolved)::int AS unresolved
       FROM feedback WHERE article_id = $1`,
      [articleId],
    );
    return row!;
  }
}
