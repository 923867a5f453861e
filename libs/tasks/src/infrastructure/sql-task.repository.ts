import { Injectable } from '@nestjs/common';
import { isForeignKeyViolation, newId, TransactionHost, ValidationError } from '#core';
import { type NewTask, TaskRepository } from '../application/task.repository.js';
import type { ProposedChange, Task, TaskOutput, TaskStatus } from '../domain/task.js';

const TASK_COLUMNS = `id, title, instruction, status, target_article_id AS "targetArticleId", target_collection_id AS "targetCollectionId",
  target_section_id AS "targetSectionId", auto_apply AS "autoApply", generator, error, attempts, created_by_key_id AS "createdByKeyId",
  created_by_scopes AS "createdByScopes", started_at AS "startedAt", finished_at AS "finishedAt", created_at AS "createdAt", updated_at AS "updatedAt"`;

const OUTPUT_COLUMNS = `id, task_id AS "taskId", position, kind, operation, status, title, markdown, target_article_id AS "targetArticleId",
  target_collection_id AS "targetCollectionId", target_section_id AS "targetSectionId", error, applied_at AS "appliedAt", created_at AS "createdAt"`;

/** The task's target keys: the request field each one checks, and what it points at. */
const TARGET_KEYS = [
  { constraint: 'tasks_target_article_id_fkey', field: 'targetArticleId', entity: 'Article', id: (t: NewTask) => t.targetArticleId },
  { constraint: 'tasks_target_collection_id_fkey', field: 'targetCollectionId', entity: 'Collection', id: (t: NewTask) => t.targetCollectionId },
  { constraint: 'tasks_target_section_id_fkey', field: 'targetSectionId', entity: 'Section', id: (t: NewTask) => t.targetSectionId },
] as const;

/** Tasks and outputs in PostgreSQL, plain SQL. */
@Injectable()
export class SqlTaskRepository extends TaskRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  /**
   * A target deleted after the use case checked it (a concurrent delete) is refused by its foreign key: the same 400
   * on the same field as a target that never existed.
   */
  async insert(t: NewTask): Promise<Task> {
    const [row] = await this.tx.query<Task>(
      `INSERT INTO tasks (id, title, instruction, status, target_article_id, target_collection_id, target_section_id, auto_apply, created_by_key_id,
         created_by_scopes, created_at, updated_at)
       VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7, $8, $9, $10, $10)
       RETURNING ${TASK_COLUMNS}`,
      [t.id, t.title, t.instruction, t.targetArticleId, t.targetCollectionId, t.targetSectionId, t.autoApply, t.createdByKeyId, t.createdByScopes, t.createdAt],
    ).catch((error: unknown) => {
      const key = TARGET_KEYS.find((k) => isForeignKeyViolation(error, k.constraint));
      if (key) throw ValidationError.field(key.field, `${key.field} ${key.entity} ${key.id(t)} does not exist`);
      throw error;
    });
    return row!;
  }

  async find(id: string, options: { forUpdate?: boolean } = {}): Promise<Task | null> {
    const [row] = await this.tx.query<Task>(`SELECT ${TASK_COLUMNS} FROM tasks WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`, [id]);
    return row ?? null;
  }

  async listOffset(limit: number, offset: number): Promise<{ tasks: Task[]; total: number }> {
    const [tasks, [count]] = await Promise.all([
      this.tx.query<Task>(`SELECT ${TASK_COLUMNS} FROM tasks ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`, [limit, offset]),
      this.tx.query<{ total: string }>('SELECT count(*) AS total FROM tasks'),
    ]);
    return { tasks, total: Number(count!.total) };
  }

  async outputs(taskId: string): Promise<TaskOutput[]> {
    return this.tx.query<TaskOutput>(`SELECT ${OUTPUT_COLUMNS} FROM task_outputs WHERE task_id = $1 ORDER BY position`, [taskId]);
  }

  async output(taskId: string, outputId: string, options: { forUpdate?: boolean } = {}): Promise<TaskOutput | null> {
    const [row] = await this.tx.query<TaskOutput>(`SELECT ${OUTPUT_COLUMNS} FROM task_outputs WHERE id = $1 AND task_id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`, [
      outputId,
      taskId,
    ]);
    return row ?? null;
  }

  async claim(id: string, at: Date): Promise<Task | null> {
    const [row] = await this.tx.query<Task>(
      `UPDATE tasks SET status = 'running', attempts = attempts + 1, started_at = $2, updated_at = $2
       WHERE id = $1 AND status IN ('queued', 'running') RETURNING ${TASK_COLUMNS}`,
      [id, at],
    );
    return row ?? null;
  }

  async setStatus(id: string, status: TaskStatus, at: Date, fields: { error?: string | null; title?: string | null; generator?: string | null } = {}): Promise<Task | null> {
    const finished = status === 'completed' || status === 'failed' || status === 'cancelled';
    const [row] = await this.tx.query<Task>(
      `UPDATE tasks SET status = $2, updated_at = $3, finished_at = CASE WHEN $4 THEN $3 ELSE finished_at END,
         error = CASE WHEN $5 THEN $6 ELSE error END, title = COALESCE(title, $7), generator = COALESCE($8, generator)
       WHERE id = $1 RETURNING ${TASK_COLUMNS}`,
      [id, status, at, finished, fields.error !== undefined, fields.error ?? null, fields.title ?? null, fields.generator ?? null],
    );
    return row ?? null;
  }

  async replaceOutputs(taskId: string, changes: readonly ProposedChange[], at: Date): Promise<TaskOutput[]> {
    await this.tx.query('DELETE FROM task_outputs WHERE task_id = $1', [taskId]);
    for (const [position, c] of changes.entries()) {
      await this.tx.query(
        `INSERT INTO task_outputs (id, task_id, position, kind, operation, status, title, markdown, target_article_id, target_collection_id,
           target_section_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, 'proposed', $6, $7, $8, $9, $10, $11, $11)`,
        [newId('tout'), taskId, position, c.kind, c.operation, c.title, c.markdown, c.targetArticleId, c.targetCollectionId, c.targetSectionId, at],
      );
    }
    return this.outputs(taskId);
  }

  async decideOutput(
    outputId: string,
    status: 'applied' | 'rejected' | 'failed',
    at: Date,
    fields: { error?: string | null; created?: Partial<Pick<TaskOutput, 'targetArticleId' | 'targetCollectionId' | 'targetSectionId'>> } = {},
  ): Promise<TaskOutput | null> {
    const created = fields.created ?? {};
    const [row] = await this.tx.query<TaskOutput>(
      `UPDATE task_outputs SET status = $2, updated_at = $3, applied_at = CASE WHEN $2 = 'applied' THEN $3 ELSE applied_at END, error = $4,
         target_article_id = COALESCE($5, target_article_id), target_collection_id = COALESCE($6, target_collection_id),
         target_section_id = COALESCE($7, target_section_id)
       WHERE id = $1 RETURNING ${OUTPUT_COLUMNS}`,
      [outputId, status, at, fields.error ?? null, created.targetArticleId ?? null, created.targetCollectionId ?? null, created.targetSectionId ?? null],
    );
    return row ?? null;
  }

  async stale(runningBefore: Date, queuedBefore: Date, limit: number): Promise<string[]> {
    const rows = await this.tx.query<{ id: string }>(
      `SELECT id FROM tasks WHERE (status = 'running' AND started_at < $1) OR (status = 'queued' AND updated_at < $2)
       ORDER BY created_at LIMIT $3`,
      [runningBefore, queuedBefore, limit],
    );
    return rows.map((row) => row.id);
  }

  async requeue(id: string, at: Date): Promise<void> {
    await this.tx.query("UPDATE tasks SET status = 'queued', updated_at = $2 WHERE id = $1 AND status IN ('queued', 'running')", [id, at]);
  }
}
