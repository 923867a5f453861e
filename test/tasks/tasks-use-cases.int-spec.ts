import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { InlineJobQueue, Principal, type Scope } from '#core';
import {
  ApplyTaskOutputUseCase,
  CancelTaskUseCase,
  CreateTaskUseCase,
  GetTaskOutputUseCase,
  GetTaskUseCase,
  ListTasksUseCase,
  RejectTaskOutputUseCase,
  RunTaskUseCase,
  type TaskView,
  TasksJobsModule,
} from '#tasks';
import { TaskContent } from '../../libs/tasks/src/application/task-content.js';
import { createUseCaseModule, type UseCaseModule } from '../support/use-case-module.js';

// The tasks' use cases below HTTP: the lib's Nest modules (TasksModule through TasksJobsModule, so a created task runs
// on the in-process queue with the built-in generator) against a PostgreSQL database of this file's own.

jest.setTimeout(60_000);

const writer = new Principal('key_writer', ['content:write']);
const reader = new Principal('key_reader', ['content:read']);

describe('tasks use cases (real PostgreSQL, in-process jobs)', () => {
  let t: UseCaseModule;

  const use = <T>(type: abstract new (...args: never[]) => T): T => t.get(type);

  const rows = <T>(sql: string, params: unknown[] = []): Promise<T[]> => t.rows<T>(sql, params);

  /** Creates a task and waits for its run on the in-process queue; the task as a content:write key sees it then. */
  async function run(request: Parameters<CreateTaskUseCase['execute']>[0]): Promise<TaskView> {
    const created = await use(CreateTaskUseCase).execute(request, writer);
    await use(InlineJobQueue).whenIdle();
    return (await use(GetTaskUseCase).execute(created.id, writer)) as TaskView;
  }

  beforeAll(async () => {
    t = await createUseCaseModule([TasksJobsModule]);
  });
  afterAll(() => t?.close());

  describe('CreateTaskUseCase', () => {
    it('returns the task as stored (queued, no outputs, the trimmed title and instruction) and the run completes it', async () => {
      const created = await use(CreateTaskUseCase).execute({ instruction: '  Write an article about invoices  ', title: '  Invoices  ' }, writer);
      expect(created).toMatchObject({
        id: expect.stringMatching(/^tsk_/),
        title: 'Invoices',
        instruction: 'Write an article about invoices',
        status: 'queued',
        attempts: 0,
        autoApply: false,
        generator: null,
        startedAt: null,
        finishedAt: null,
        outputs: [],
      });
      expect(await rows('SELECT created_by_key_id AS "keyId", created_by_scopes AS scopes FROM tasks WHERE id = $1', [created.id])).toEqual([
        { keyId: 'key_writer', scopes: ['content:write'] },
      ]);
      await use(InlineJobQueue).whenIdle();
      const done = (await use(GetTaskUseCase).execute(created.id, writer)) as TaskView;
      expect(done).toMatchObject({ status: 'completed', attempts: 1, generator: 'builtin', title: 'Invoices' });
      expect(done.outputs).toEqual([expect.objectContaining({ kind: 'article', operation: 'create', status: 'proposed', title: 'Invoices' })]);
    });

    it('refuses a blank instruction and targets that do not exist, naming the field; nothing is stored', async () => {
      const [{ n: before }] = await rows<{ n: number }>('SELECT count(*)::int AS n FROM tasks');
      const cases: Array<[Parameters<CreateTaskUseCase['execute']>[0], string]> = [
        [{ instruction: '   ' }, 'instruction'],
        [{ instruction: 'Rename to "x"', targetArticleId: 'art_unknown' }, 'targetArticleId'],
        [{ instruction: 'Rename to "x"', targetCollectionId: 'col_unknown' }, 'targetCollectionId'],
        [{ instruction: 'Rename to "x"', targetSectionId: '' }, 'targetSectionId'],
      ];
      for (const [request, field] of cases) {
        await expect(use(CreateTaskUseCase).execute(request, writer)).rejects.toMatchObject({ code: 'invalid_request', details: [expect.objectContaining({ field })] });
      }
      const [{ n: after }] = await rows<{ n: number }>('SELECT count(*)::int AS n FROM tasks');
      expect(after).toBe(before);
    });

    it('a target deleted between its check and the insert is the same 400 on its field, not a database error; nothing is stored', async () => {
      const [{ id: sectionId }] = await rows<{ id: string }>('SELECT id FROM sections ORDER BY position LIMIT 1');
      const content = use(TaskContent);
      const check = content.checkTargets.bind(content);
      for (const [field, table] of [['targetCollectionId', 'collections'], ['targetSectionId', 'sections']] as const) {
        const id = table === 'collections' ? `col_race_${Date.now()}` : `sec_race_${Date.now()}`;
        if (table === 'collections') {
          await rows("INSERT INTO collections (id, helpdesk_id, short_id, section_id, title, created_at, updated_at) SELECT $1, helpdesk_id, $2, id, 'Race', now(), now() FROM sections WHERE id = $3", [id, `race${Date.now()}`, sectionId]);
        } else {
          await rows("INSERT INTO sections (id, helpdesk_id, name, position, created_at, updated_at) SELECT $1, helpdesk_id, 'Race', 9999, now(), now() FROM sections WHERE id = $2", [id, sectionId]);
        }
        // The check passes, then another request deletes the target before the task is inserted.
        const spy = jest.spyOn(content, 'checkTargets').mockImplementationOnce(async (targets) => {
          await check(targets);
          await rows(`DELETE FROM ${table} WHERE id = $1`, [id]);
        });
        const before = (await rows<{ n: number }>('SELECT count(*)::int AS n FROM tasks'))[0]!.n;
        await expect(use(CreateTaskUseCase).execute({ instruction: 'Rename to "x"', [field]: id }, writer)).rejects.toMatchObject({
          code: 'invalid_request',
          details: [{ field, message: expect.stringContaining(`${id} does not exist`) }],
        });
        expect((await rows<{ n: number }>('SELECT count(*)::int AS n FROM tasks'))[0]!.n).toBe(before);
        spy.mockRestore();
      }
    });
  });

  describe('GetTaskUseCase and ListTasksUseCase: what a key may see', () => {
    it('content:read sees exactly id, title and status; the title comes from the instruction, never from the draft it targets', async () => {
      // A draft article (never published) whose title only content:write keys may see.
      const drafted = await run({ instruction: 'Write an article about the secret launch plan' });
      const applied = await use(ApplyTaskOutputUseCase).execute(drafted.id, drafted.outputs[0]!.id, writer);
      const articleId = applied.targetArticleId!;

      const task = await run({ instruction: 'Append: Ships in the spring.', targetArticleId: articleId });
      expect(task).toMatchObject({ status: 'completed', title: 'Append: Ships in the spring' });
      expect(task.outputs[0]).toMatchObject({ operation: 'update', title: 'The secret launch plan', targetArticleId: articleId });

      const basic = await use(GetTaskUseCase).execute(task.id, reader);
      expect(basic).toEqual({ id: task.id, title: 'Append: Ships in the spring', status: 'completed' });

      // A legacy full-access key and content:write see the whole task; content:publish alone does not.
      expect(await use(GetTaskUseCase).execute(task.id, new Principal('key_legacy', null))).toEqual(task);
      expect(Object.keys(await use(GetTaskUseCase).execute(task.id, new Principal('key_publisher', ['content:publish'])))).toEqual(['id', 'title', 'status']);

      const page = await use(ListTasksUseCase).execute({ limit: 2 });
      expect(page).toMatchObject({ limit: 2, offset: 0, total: expect.any(Number) });
      expect(page.items[0]).toEqual({ id: task.id, title: basic.title, status: 'completed' });
    });

    it('404 for an unknown task, whoever asks', async () => {
      for (const principal of [reader, writer]) {
        await expect(use(GetTaskUseCase).execute('tsk_unknown', principal)).rejects.toMatchObject({ code: 'not_found' });
      }
    });
  });

  describe('ApplyTaskOutputUseCase and RejectTaskOutputUseCase', () => {
    it('apply: the output as applied, with the new draft article it created; the content write and the decision commit together', async () => {
      const task = await run({ instruction: 'Write an article about exporting reports' });
      const output = task.outputs[0]!;
      const applied = await use(ApplyTaskOutputUseCase).execute(task.id, output.id, writer);
      expect(applied).toEqual({ ...output, status: 'applied', appliedAt: expect.any(String), targetArticleId: expect.stringMatching(/^art_/) });
      const [article] = await rows<{ status: string; sectionDefault: boolean }>(
        `SELECT a.status, s.is_default AS "sectionDefault" FROM articles a JOIN sections s ON s.id = a.section_id WHERE a.id = $1`,
        [applied.targetArticleId],
      );
      expect(article).toEqual({ status: 'draft', sectionDefault: true });
      // What the task shows afterwards is what apply returned.
      expect(((await use(GetTaskUseCase).execute(task.id, writer)) as TaskView).outputs).toEqual([applied]);
    });

    it('apply with a key without content:write is refused and rolls back: no content, the output stays proposed', async () => {
      const task = await run({ instruction: 'Create a collection called Refused billing' });
      const output = task.outputs[0]!;
      const readOnly = new Principal('key_reader', ['content:read', 'content:publish'] as Scope[]);
      await expect(use(ApplyTaskOutputUseCase).execute(task.id, output.id, readOnly)).rejects.toMatchObject({ code: 'insufficient_scope' });
      expect(await rows("SELECT id FROM collections WHERE title = 'Refused billing'")).toEqual([]);
      expect(((await use(GetTaskUseCase).execute(task.id, writer)) as TaskView).outputs).toEqual([output]);
    });

    it('reject: the output as rejected, nothing written; it can be neither applied nor rejected afterwards', async () => {
      const task = await run({ instruction: 'Create a section called Rejected ideas' });
      const output = task.outputs[0]!;
      expect(await use(RejectTaskOutputUseCase).execute(task.id, output.id)).toEqual({ ...output, status: 'rejected' });
      expect(await rows("SELECT id FROM sections WHERE name = 'Rejected ideas'")).toEqual([]);
      await expect(use(ApplyTaskOutputUseCase).execute(task.id, output.id, writer)).rejects.toMatchObject({ code: 'invalid_state' });
      await expect(use(RejectTaskOutputUseCase).execute(task.id, output.id)).rejects.toMatchObject({ code: 'invalid_state' });
    });

    it('404 for an unknown output or an output of another task', async () => {
      const one = await run({ instruction: 'Create a section called First of two' });
      const two = await run({ instruction: 'Create a section called Second of two' });
      await expect(use(ApplyTaskOutputUseCase).execute(one.id, two.outputs[0]!.id, writer)).rejects.toMatchObject({ code: 'not_found' });
      await expect(use(RejectTaskOutputUseCase).execute(one.id, 'tout_unknown')).rejects.toMatchObject({ code: 'not_found' });
      await expect(use(GetTaskOutputUseCase).execute(two.id, one.outputs[0]!.id)).rejects.toMatchObject({ code: 'not_found' });
    });

    it('the same output applied twice at once is applied once: one collection created, the other call 409', async () => {
      const task = await run({ instruction: 'Create a collection called Concurrent billing' });
      const output = task.outputs[0]!;
      const attempts = await Promise.allSettled(Array.from({ length: 4 }, () => use(ApplyTaskOutputUseCase).execute(task.id, output.id, writer)));
      const fulfilled = attempts.filter((a) => a.status === 'fulfilled');
      const rejected = attempts.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
      expect(fulfilled).toHaveLength(1);
      expect(rejected.map((r) => (r.reason as { code: string }).code)).toEqual(['invalid_state', 'invalid_state', 'invalid_state']);
      const collections = await rows<{ id: string }>("SELECT id FROM collections WHERE title = 'Concurrent billing'");
      expect(collections).toHaveLength(1);
      expect(((await use(GetTaskUseCase).execute(task.id, writer)) as TaskView).outputs).toEqual([
        expect.objectContaining({ status: 'applied', targetCollectionId: collections[0]!.id }),
      ]);
    });

    it('apply and reject of the same output at once: exactly one decision stands', async () => {
      const task = await run({ instruction: 'Create a section called Raced decision' });
      const output = task.outputs[0]!;
      const [applied, rejected] = await Promise.allSettled([
        use(ApplyTaskOutputUseCase).execute(task.id, output.id, writer),
        use(RejectTaskOutputUseCase).execute(task.id, output.id),
      ]);
      expect([applied.status, rejected.status].sort()).toEqual(['fulfilled', 'rejected']);
      const [row] = await rows<{ status: string }>('SELECT status FROM task_outputs WHERE id = $1', [output.id]);
      const sections = await rows("SELECT id FROM sections WHERE name = 'Raced decision'");
      expect(sections).toHaveLength(row!.status === 'applied' ? 1 : 0);
      expect(row!.status).toBe(applied.status === 'fulfilled' ? 'applied' : 'rejected');
    });
  });

  describe('GetTaskOutputUseCase', () => {
    it('an update shows the proposed content and a unified diff against the current content; a create has no diff', async () => {
      const created = await run({ instruction: 'Create a collection called Old name' });
      expect(await use(GetTaskOutputUseCase).execute(created.id, created.outputs[0]!.id)).toMatchObject({ operation: 'create', markdown: '', diff: null });
      const collectionId = (await use(ApplyTaskOutputUseCase).execute(created.id, created.outputs[0]!.id, writer)).targetCollectionId!;

      const update = await run({ instruction: 'Rename to "New name"', targetCollectionId: collectionId });
      const detail = await use(GetTaskOutputUseCase).execute(update.id, update.outputs[0]!.id);
      expect(detail).toMatchObject({ ...update.outputs[0], operation: 'update', title: 'New name', targetCollectionId: collectionId });
      expect(detail.diff).toContain('-# Old name');
      expect(detail.diff).toContain('+# New name');
    });
  });

  describe('CancelTaskUseCase', () => {
    it('returns the cancelled task (title from the instruction, finishedAt set) with its outputs; a run afterwards leaves it alone', async () => {
      // Stored straight as queued, as the create use case stores it, without a job: nothing runs it meanwhile.
      await rows(
        `INSERT INTO tasks (id, title, instruction, status, auto_apply, created_by_key_id, created_by_scopes, created_at, updated_at)
         VALUES ('tsk_cancelme', NULL, 'Write an article about cancelled plans. Soon.', 'queued', false, 'key_writer', '{content:write}', now(), now())`,
      );
      const cancelled = await use(CancelTaskUseCase).execute('tsk_cancelme');
      expect(cancelled).toMatchObject({ id: 'tsk_cancelme', status: 'cancelled', title: 'Cancelled plans', finishedAt: expect.any(String), outputs: [] });
      expect(await use(GetTaskUseCase).execute('tsk_cancelme', writer)).toEqual(cancelled);

      await use(RunTaskUseCase).execute('tsk_cancelme', true);
      expect(await use(GetTaskUseCase).execute('tsk_cancelme', writer)).toEqual(cancelled);
      await expect(use(CancelTaskUseCase).execute('tsk_cancelme')).rejects.toMatchObject({ code: 'invalid_state' });
      await expect(use(CancelTaskUseCase).execute('tsk_unknown')).rejects.toMatchObject({ code: 'not_found' });
    });

    it('two cancels at once: one returns the cancelled task, the other is 409', async () => {
      await rows(
        `INSERT INTO tasks (id, title, instruction, status, auto_apply, created_by_key_id, created_by_scopes, created_at, updated_at)
         VALUES ('tsk_cancelrace', 'Race', 'Write an article about races', 'queued', false, 'key_writer', '{content:write}', now(), now())`,
      );
      const results = await Promise.allSettled([use(CancelTaskUseCase).execute('tsk_cancelrace'), use(CancelTaskUseCase).execute('tsk_cancelrace')]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!.reason).toMatchObject({ code: 'invalid_state' });
    });
  });
});
