import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Queue } from 'bullmq';
import pg from 'pg';
import type { Response } from 'supertest';
import { JobName } from '#core';
import { RecoverTasksUseCase, RunTaskUseCase } from '#tasks';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';
import { clockPast } from '../support/clock.js';
import { TEST_REDIS_URL } from '../support/env.js';
import { polling } from '../support/eventually.js';
import { ARTICLE_ID, COLLECTION_ID, ISO_MS, SECTION_ID, TASK_ID, ULID, UNKNOWN_ARTICLE, UNKNOWN_COLLECTION, UNKNOWN_SECTION } from '../support/formats.js';
import { outcome } from '../support/outcome.js';
import { allItems } from '../support/pages.js';
import { defaultSectionId } from '../support/sections.js';
import type { Task, TaskOutput } from '../support/tasks.js';

/**
 * AI tasks end to end with the default, offline builtin generator (CONTRACT §7): create (202, validation), the
 * run (jobs in process), outputs (proposed Markdown, diffs), apply (drafts only, never published) and reject,
 * autoApply, failures and their events, list and get per scope, cancel, and the at-least-once re-run and recovery.
 */

jest.setTimeout(60_000);

const OUTPUT_ID = new RegExp(`^tout_${ULID}$`);
const UNKNOWN_TASK = 'tsk_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';
const UNKNOWN_OUTPUT = 'tout_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';
/** A supertest request, before its headers are set. */
type HttpRequest = ReturnType<TestApp['http']['get']>;
/** How long a task may take to finish (the builtin generator needs milliseconds). */
const SETTLE_MS = 15_000;

/** Every field of the detailed task (content:write), sorted. */
const TASK_KEYS = [
  'attempts',
  'autoApply',
  'createdAt',
  'error',
  'finishedAt',
  'generator',
  'id',
  'instruction',
  'outputs',
  'startedAt',
  'status',
  'targetArticleId',
  'targetCollectionId',
  'targetSectionId',
  'title',
  'updatedAt',
];
const OUTPUT_KEYS = ['appliedAt', 'error', 'id', 'kind', 'operation', 'status', 'targetArticleId', 'targetCollectionId', 'targetSectionId', 'title'];

interface OutputDetail extends TaskOutput {
  markdown: string;
  diff: string | null;
}

const eventually = polling({ timeoutMs: SETTLE_MS, intervalMs: 25 });

describe('tasks (builtin generator, jobs in process)', () => {
  let t: TestApp;
  let db: pg.Client;
  /** content:read only. */
  let reader: string;
  /** content:write only (implies content:read). */
  let writer: string;
  /** content:publish only (implies content:read, not content:write). */
  let publisher: string;
  /** webhooks:manage only: no content scope at all. */
  let hooks: string;
  /** Legacy key: null scopes, full access. */
  let legacy: string;
  let general: string;
  /** The seeded published article the create flow quotes. */
  let passwordArticle: { id: string; url: string };

  async function rows<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await db.query(sql, params)).rows as T[];
  }

  async function post(body: Record<string, unknown>, key = writer): Promise<Response> {
    return t.http.post('/v1/tasks').set(bearer(key)).send(body);
  }

  /**
   * POST /v1/tasks, expecting 202. KNOWN BUG (reported, not fixed here): the answer should show the task as created
   * (queued), but CreateTaskUseCase re-reads the row after queueing its job, and the job runner sometimes claims it
   * first, so the status may already be `running` (or later). The exact 202 is checked below against an API process
   * that runs no jobs.
   */
  async function createTask(body: Record<string, unknown>, key = writer): Promise<Task> {
    const res = await post(body, key);
    expect(outcome(res)).toMatchObject({ status: 202, body: { id: expect.stringMatching(TASK_ID), status: expect.stringMatching(/^(queued|running|completed)$/) } });
    return res.body;
  }

  async function getTask(id: string, key = writer): Promise<Task> {
    const res = await t.http.get(`/v1/tasks/${id}`).set(bearer(key));
    expect(outcome(res)).toMatchObject({ status: 200 });
    return res.body;
  }

  /** Polls GET /v1/tasks/{id} until the task is neither queued nor running (and, with autoApply, no output is still proposed). */
  async function settle(id: string): Promise<Task> {
    let task: Task | undefined;
    await eventually(async () => {
      task = await getTask(id);
      if (task.status === 'queued' || task.status === 'running') return false;
      return !(task.autoApply && task.status === 'completed' && task.outputs.some((o) => o.status === 'proposed'));
    }, `task ${id} to finish`);
    return task!;
  }

  /** Creates a task and waits for it to finish. */
  async function run(body: Record<string, unknown>, key = writer): Promise<Task> {
    return settle((await createTask(body, key)).id);
  }

  async function getOutput(taskId: string, outputId: string): Promise<OutputDetail> {
    const res = await t.http.get(`/v1/tasks/${taskId}/outputs/${outputId}`).set(bearer(writer));
    expect(outcome(res)).toMatchObject({ status: 200 });
    return res.body;
  }

  async function decide(taskId: string, outputId: string, verb: 'apply' | 'reject', status = 200, key = writer): Promise<Response> {
    const res = await t.http.post(`/v1/tasks/${taskId}/outputs/${outputId}/${verb}`).set(bearer(key));
    expect(outcome(res)).toMatchObject({ status });
    return res;
  }

  /** A published article (legacy one-call mode). */
  async function publishedArticle(title: string, markdown: string): Promise<{ id: string; url: string; publishedAt: string }> {
    const res = await t.http.post('/v1/articles').set(bearer(legacy)).send({ title, sectionId: general, markdown, publish: true });
    expect(outcome(res)).toMatchObject({ status: 201, body: { status: 'published' } });
    return res.body;
  }

  async function article(id: string, key = writer, format = 'markdown'): Promise<Response> {
    return t.http.get(`/v1/articles/${id}`).query({ format }).set(bearer(key));
  }

  async function draftOf(id: string): Promise<Response> {
    return t.http.get(`/v1/articles/${id}/draft`).query({ format: 'markdown' }).set(bearer(writer));
  }

  /** Every article id of the cursor list with this query and key. */
  async function listedArticles(query: Record<string, string>, key: string): Promise<string[]> {
    return (await allItems<{ id: string }>(t, '/v1/articles', query, key)).map((a) => a.id);
  }

  async function section(name: string): Promise<string> {
    return (await t.http.post('/v1/sections').set(bearer(writer)).send({ name }).expect(201)).body.id;
  }

  async function collection(title: string, subtitle: string | null = null): Promise<string> {
    return (await t.http.post('/v1/collections').set(bearer(writer)).send({ title, subtitle }).expect(201)).body.id;
  }

  async function events(type: string, taskId: string): Promise<unknown[]> {
    return (await rows<{ data: unknown }>("SELECT data FROM outbox_events WHERE type = $1 AND data->>'id' = $2 ORDER BY id", [type, taskId])).map((r) => r.data);
  }

  beforeAll(async () => {
    t = await startTestApp({ env: NO_LIMITS });
    reader = await t.key(['content:read']);
    writer = await t.key(['content:write']);
    publisher = await t.key(['content:publish']);
    hooks = await t.key(['webhooks:manage']);
    legacy = await t.key(null);
    db = new pg.Client({ connectionString: t.databaseUrl! });
    await db.connect();
    general = await defaultSectionId(t, reader);
    const reset = await publishedArticle(
      'Reset your password',
      'Your password protects your account, so reset it when you suspect someone knows it.\n\n1. Open Settings\n2. Choose Reset password\n3. Follow the link in the email',
    );
    passwordArticle = { id: reset.id, url: reset.url };
    expect(passwordArticle.url).toBe('http://help.test/articles/reset-your-password');
    await publishedArticle('Invoices', 'Invoices are sent monthly by email.');
  });
  afterAll(async () => {
    await db?.end();
    await t?.close();
  });

  describe('POST /v1/tasks', () => {
    it('400 for a missing, empty or blank instruction, unknown fields and a non-boolean autoApply; nothing is stored', async () => {
      const [{ count: before }] = await rows<{ count: string }>('SELECT count(*) FROM tasks');
      const cases: Array<[Record<string, unknown>, string]> = [
        [{}, 'instruction'],
        [{ instruction: '' }, 'instruction'],
        [{ instruction: '   ' }, 'instruction'],
        [{ instruction: 42 }, 'instruction'],
        [{ instruction: 'x'.repeat(10_001) }, 'instruction'],
        [{ instruction: 'Write an article about invoices', colour: 'blue' }, 'colour'],
        [{ instruction: 'Write an article about invoices', autoApply: 'yes' }, 'autoApply'],
        [{ instruction: 'Write an article about invoices', autoApply: 1 }, 'autoApply'],
        [{ instruction: 'Write an article about invoices', title: '' }, 'title'],
      ];
      for (const [body, field] of cases) {
        const res = await post(body);
        expect({ sent: body, ...outcome(res) }).toMatchObject({ sent: body, status: 400 });
        expect(res.body).toMatchObject({ code: 'invalid_request', error: expect.any(String) });
        expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      }
      const [{ count: after }] = await rows<{ count: string }>('SELECT count(*) FROM tasks');
      expect(after).toBe(before);
    });

    it('400 naming the field for an unknown targetArticleId, targetCollectionId or targetSectionId', async () => {
      const [{ count: before }] = await rows<{ count: string }>('SELECT count(*) FROM tasks');
      const cases: Array<[string, string]> = [
        ['targetArticleId', UNKNOWN_ARTICLE],
        ['targetCollectionId', UNKNOWN_COLLECTION],
        ['targetSectionId', UNKNOWN_SECTION],
        ['targetArticleId', 'not-an-id'],
      ];
      for (const [field, id] of cases) {
        const res = await post({ instruction: 'rename to "Anything"', [field]: id });
        expect({ field, ...outcome(res) }).toMatchObject({ field, status: 400, body: { code: 'invalid_request' } });
        expect(res.body.error).toContain(field);
        expect(res.body.details).toEqual([{ field, message: expect.stringContaining(field) }]);
      }
      const [{ count: after }] = await rows<{ count: string }>('SELECT count(*) FROM tasks');
      expect(after).toBe(before);
    });

    it('keeps a given title; an omitted title is generated by the run (completed or failed)', async () => {
      const titled = await createTask({ instruction: 'Write an article about invoices', title: 'My own title' });
      expect(titled.title).toBe('My own title');
      expect(await settle(titled.id)).toMatchObject({ status: 'completed', title: 'My own title' });

      // Created without a title (null in the 202: see the API-only block), generated by the run.
      const untitled = await createTask({ instruction: 'Write an article about how to reset a password' });
      expect(await settle(untitled.id)).toMatchObject({ status: 'completed', title: 'How to reset a password' });

      const failing = await createTask({ instruction: 'make it better. Then shine', targetArticleId: passwordArticle.id });
      expect(await settle(failing.id)).toMatchObject({ status: 'failed', title: 'Make it better' });
    });
  });

  describe('create flow: a new article', () => {
    let task: Task;
    let output: TaskOutput;

    it('completes with one proposed article create, generated by the builtin generator', async () => {
      const created = await createTask({ instruction: 'Write an article about how to reset a password' });
      task = await settle(created.id);
      expect(Object.keys(task).sort()).toEqual(TASK_KEYS);
      expect(task).toEqual({
        ...created,
        title: 'How to reset a password',
        status: 'completed',
        generator: 'builtin',
        error: null,
        attempts: 1,
        updatedAt: expect.stringMatching(ISO_MS),
        startedAt: expect.stringMatching(ISO_MS),
        finishedAt: expect.stringMatching(ISO_MS),
        outputs: [
          {
            id: expect.stringMatching(OUTPUT_ID),
            kind: 'article',
            operation: 'create',
            status: 'proposed',
            title: 'How to reset a password',
            targetArticleId: null,
            targetCollectionId: null,
            targetSectionId: null,
            appliedAt: null,
            error: null,
          },
        ],
      });
      expect(Object.keys(task.outputs[0]!).sort()).toEqual(OUTPUT_KEYS);
      expect(Date.parse(task.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(task.startedAt!));
      output = task.outputs[0]!;
    });

    it('records task.completed with the task as GET returns it to a content:write key', async () => {
      expect(await events('task.completed', task.id)).toEqual([task]);
      expect(await events('task.failed', task.id)).toEqual([]);
    });

    it('GET the output: Markdown quoting the related published article with its URL, says where it came from; no diff for a create', async () => {
      const detail = await getOutput(task.id, output.id);
      expect(Object.keys(detail).sort()).toEqual([...OUTPUT_KEYS, 'diff', 'markdown'].sort());
      expect(detail).toMatchObject({ ...output, diff: null });
      expect(detail.markdown).toContain('Your password protects your account');
      expect(detail.markdown).toContain(`[Reset your password](${passwordArticle.url})`);
      expect(detail.markdown).toMatch(/1\. Open Settings\n2\. Choose Reset password/);
      expect(detail.markdown).toContain('built-in generator');
      // The unrelated article is not dragged in.
      expect(detail.markdown).not.toContain('Invoices');
    });

    it('apply: a new DRAFT article in the default section, appliedAt and targetArticleId set', async () => {
      const res = await decide(task.id, output.id, 'apply');
      expect(res.body).toEqual({ ...output, status: 'applied', appliedAt: expect.stringMatching(ISO_MS), targetArticleId: expect.stringMatching(ARTICLE_ID) });
      const articleId = res.body.targetArticleId as string;
      const after = await getTask(task.id);
      expect(after.status).toBe('completed');
      expect(after.outputs).toEqual([res.body]);

      const created = await article(articleId, writer);
      expect(outcome(created)).toMatchObject({
        status: 200,
        body: { id: articleId, title: 'How to reset a password', status: 'draft', publishedAt: null, url: null, sectionId: general, collectionId: null },
      });
      expect(created.body.contentMarkdown).toContain('built-in generator');
      expect(created.body.contentMarkdown).toContain('Your password protects your account');
      expect((await draftOf(articleId)).status).toBe(200);
      // Not live: a content:read key neither sees it nor lists it; a writer lists it among drafts.
      expect((await article(articleId, reader)).status).toBe(404);
      expect(await listedArticles({}, reader)).not.toContain(articleId);
      expect(await listedArticles({}, writer)).not.toContain(articleId);
      expect(await listedArticles({ status: 'draft' }, writer)).toContain(articleId);
    });

    it('409 when applying twice or rejecting an applied output; the output stays as applied', async () => {
      const before = await getTask(task.id);
      for (const verb of ['apply', 'reject'] as const) {
        const res = await decide(task.id, output.id, verb, 409);
        expect(res.body).toMatchObject({ code: 'invalid_state', error: expect.stringContaining('applied') });
      }
      expect(await getTask(task.id)).toEqual(before);
    });

    it('places the new article in targetSectionId / targetCollectionId when the task names them', async () => {
      const sectionId = await section('Guides');
      const collectionId = await collection('Exports');
      const done = await run({ instruction: 'Write a guide on exporting invoices', targetSectionId: sectionId, targetCollectionId: collectionId });
      expect(done).toMatchObject({ status: 'completed', targetSectionId: sectionId, targetCollectionId: collectionId });
      expect(done.outputs).toEqual([
        expect.objectContaining({ kind: 'article', operation: 'create', status: 'proposed', targetArticleId: null, targetSectionId: sectionId, targetCollectionId: collectionId }),
      ]);
      const applied = (await decide(done.id, done.outputs[0]!.id, 'apply')).body as TaskOutput;
      expect(applied).toMatchObject({ status: 'applied', targetSectionId: sectionId, targetCollectionId: collectionId, targetArticleId: expect.stringMatching(ARTICLE_ID) });
      expect((await article(applied.targetArticleId!)).body).toMatchObject({ status: 'draft', sectionId, collectionId });
    });

    it('404 for an unknown output, or an output of another task', async () => {
      const other = await run({ instruction: 'Write an article about invoices' });
      for (const [taskId, outputId] of [
        [task.id, UNKNOWN_OUTPUT],
        [task.id, other.outputs[0]!.id],
        [UNKNOWN_TASK, output.id],
      ] as const) {
        for (const res of [
          await t.http.get(`/v1/tasks/${taskId}/outputs/${outputId}`).set(bearer(writer)),
          await t.http.post(`/v1/tasks/${taskId}/outputs/${outputId}/apply`).set(bearer(writer)),
          await t.http.post(`/v1/tasks/${taskId}/outputs/${outputId}/reject`).set(bearer(writer)),
        ]) {
          expect(outcome(res)).toMatchObject({ status: 404, body: { code: 'not_found' } });
        }
      }
      expect((await getTask(other.id)).outputs[0]!.status).toBe('proposed');
    });
  });

  describe('update flow: a target article', () => {
    it('proposes an update with a unified diff; apply writes the open draft and never publishes', async () => {
      const target = await publishedArticle('Use the Old Panel', 'Open the Old Panel to change your email address.\n\nThe Old Panel lists every address you use.');
      const live = (await article(target.id)).body;
      const done = await run({ instruction: 'Rename "Old Panel" to "Account Center"', targetArticleId: target.id });
      expect(done).toMatchObject({ status: 'completed', title: expect.any(String), targetArticleId: target.id, generator: 'builtin' });
      expect(done.outputs).toEqual([
        expect.objectContaining({ kind: 'article', operation: 'update', status: 'proposed', title: 'Use the Account Center', targetArticleId: target.id, appliedAt: null }),
      ]);
      const output = done.outputs[0]!;

      const detail = await getOutput(done.id, output.id);
      expect(detail.markdown).toContain('Open the Account Center to change your email address.');
      expect(detail.markdown).not.toContain('Old Panel');
      const diff = detail.diff!;
      expect(diff).toContain('--- current');
      expect(diff).toContain('+++ proposed');
      expect(diff).toMatch(/^@@ .* @@$/m);
      const removed = diff.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---'));
      const added = diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++'));
      expect(removed).toEqual(expect.arrayContaining(['-# Use the Old Panel', expect.stringMatching(/^-.*Old Panel.*change your email/)]));
      expect(added).toEqual(expect.arrayContaining(['+# Use the Account Center', expect.stringMatching(/^\+.*Account Center.*change your email/)]));
      expect(removed.every((l) => l.includes('Old Panel'))).toBe(true);
      expect(added.every((l) => l.includes('Account Center'))).toBe(true);

      // Nothing written before apply.
      expect((await draftOf(target.id)).status).toBe(404);

      const applied = await decide(done.id, output.id, 'apply');
      expect(applied.body).toEqual({ ...output, status: 'applied', appliedAt: expect.stringMatching(ISO_MS) });

      const draft = await draftOf(target.id);
      expect(outcome(draft)).toMatchObject({ status: 200, body: { articleId: target.id, title: 'Use the Account Center' } });
      expect(draft.body.contentMarkdown).toContain('Open the Account Center to change your email address.');
      expect(draft.body.contentMarkdown).not.toContain('Old Panel');

      // The live article is untouched: still published, same title, content and publishedAt, for writers and readers.
      for (const key of [writer, reader]) {
        const now = await article(target.id, key);
        expect(outcome(now)).toMatchObject({ status: 200, body: { status: 'published', title: 'Use the Old Panel', publishedAt: live.publishedAt } });
        expect(now.body.contentMarkdown).toBe(live.contentMarkdown);
      }
      expect(await listedArticles({}, reader)).toContain(target.id);
    });

    // Regression: applying a retitling update used to move the live article's slug and URL before any publish.
    it('applying a retitling update does not move the live URL before publish', async () => {
      const target = await publishedArticle('Use the Legacy Console', 'Open the Legacy Console to see your invoices.');
      const done = await run({ instruction: 'Rename "Legacy Console" to "Billing Center"', targetArticleId: target.id });
      await decide(done.id, done.outputs[0]!.id, 'apply');
      const now = await article(target.id, reader);
      expect(now.body).toMatchObject({ status: 'published', title: 'Use the Legacy Console', url: target.url, slug: 'use-the-legacy-console' });
    });

    it('reject: status rejected, nothing changes; it cannot be applied afterwards', async () => {
      const target = await publishedArticle('Pick a plan', 'Every plan includes the Starter tier.');
      const before = (await article(target.id)).body;
      const done = await run({ instruction: 'Replace "Starter tier" with "Basic tier"', targetArticleId: target.id });
      const output = done.outputs[0]!;
      expect(output).toMatchObject({ kind: 'article', operation: 'update', status: 'proposed' });

      const rejected = await decide(done.id, output.id, 'reject');
      expect(rejected.body).toEqual({ ...output, status: 'rejected', appliedAt: null });
      expect((await getTask(done.id)).outputs).toEqual([rejected.body]);
      expect((await draftOf(target.id)).status).toBe(404);
      expect((await article(target.id)).body).toEqual(before);

      for (const verb of ['apply', 'reject'] as const) {
        expect((await decide(done.id, output.id, verb, 409)).body).toMatchObject({ code: 'invalid_state' });
      }
      expect((await draftOf(target.id)).status).toBe(404);
    });

    it("updates an unpublished article's open draft in place", async () => {
      const created = await t.http.post('/v1/articles').set(bearer(writer)).send({ title: 'Draft only', sectionId: general, markdown: 'First version of the text.' }).expect(201);
      const done = await run({ instruction: 'append: Second paragraph.', targetArticleId: created.body.id });
      const detail = await getOutput(done.id, done.outputs[0]!.id);
      expect(detail.diff).toContain('+Second paragraph.');
      await decide(done.id, detail.id, 'apply');
      const now = await article(created.body.id);
      expect(now.body).toMatchObject({ status: 'draft', title: 'Draft only' });
      expect(now.body.contentMarkdown).toMatch(/First version of the text\.\n\nSecond paragraph\./);
    });
  });

  describe('collections and sections', () => {
    it('"Create a collection called Billing": a collection create output; apply creates it', async () => {
      const done = await run({ instruction: 'Create a collection called Billing' });
      expect(done.outputs).toEqual([
        expect.objectContaining({ kind: 'collection', operation: 'create', status: 'proposed', title: 'Billing', targetCollectionId: null, targetArticleId: null }),
      ]);
      expect((await getOutput(done.id, done.outputs[0]!.id)).diff).toBeNull();
      const applied = (await decide(done.id, done.outputs[0]!.id, 'apply')).body as TaskOutput;
      expect(applied).toMatchObject({ status: 'applied', appliedAt: expect.stringMatching(ISO_MS), targetCollectionId: expect.stringMatching(COLLECTION_ID) });
      const res = await t.http.get(`/v1/collections/${applied.targetCollectionId}`).set(bearer(reader));
      expect(outcome(res)).toMatchObject({ status: 200, body: { id: applied.targetCollectionId, title: 'Billing' } });
    });

    it('targetCollectionId + rename to "New name": a collection update with a diff; apply renames it and keeps the subtitle', async () => {
      const id = await collection('Old collection', 'Keep this subtitle');
      const done = await run({ instruction: 'rename to "New name"', targetCollectionId: id });
      expect(done.outputs).toEqual([expect.objectContaining({ kind: 'collection', operation: 'update', status: 'proposed', title: 'New name', targetCollectionId: id })]);
      const detail = await getOutput(done.id, done.outputs[0]!.id);
      expect(detail.diff).toContain('-# Old collection');
      expect(detail.diff).toContain('+# New name');
      expect(detail.diff).not.toMatch(/^[-+]Keep this subtitle/m);
      await decide(done.id, detail.id, 'apply');
      expect((await t.http.get(`/v1/collections/${id}`).set(bearer(reader)).expect(200)).body).toMatchObject({ id, title: 'New name', subtitle: 'Keep this subtitle' });
    });

    it('"Create a section called Developers" and targetSectionId + rename to "…": applied to sections', async () => {
      const created = await run({ instruction: 'Create a section called Developers' });
      expect(created.outputs).toEqual([expect.objectContaining({ kind: 'section', operation: 'create', status: 'proposed', title: 'Developers', targetSectionId: null })]);
      const applied = (await decide(created.id, created.outputs[0]!.id, 'apply')).body as TaskOutput;
      expect(applied).toMatchObject({ status: 'applied', targetSectionId: expect.stringMatching(SECTION_ID) });
      expect((await t.http.get(`/v1/sections/${applied.targetSectionId}`).set(bearer(reader)).expect(200)).body).toMatchObject({ name: 'Developers', isDefault: false });

      const id = await section('Old section');
      const renamed = await run({ instruction: 'rename to "Renamed section"', targetSectionId: id });
      expect(renamed.outputs).toEqual([expect.objectContaining({ kind: 'section', operation: 'update', status: 'proposed', title: 'Renamed section', targetSectionId: id })]);
      const detail = await getOutput(renamed.id, renamed.outputs[0]!.id);
      expect(detail.diff).toContain('-# Old section');
      expect(detail.diff).toContain('+# Renamed section');
      await decide(renamed.id, detail.id, 'apply');
      expect((await t.http.get(`/v1/sections/${id}`).set(bearer(reader)).expect(200)).body).toMatchObject({ id, name: 'Renamed section' });
    });
  });

  describe('autoApply', () => {
    it('applies an update as the open draft: the target stays published with its live content', async () => {
      const target = await publishedArticle('Export your data', 'Use the Export button in Settings.');
      const live = (await article(target.id)).body;
      const done = await run({ instruction: 'Replace "Export button" with "Download button"', targetArticleId: target.id, autoApply: true });
      expect(done).toMatchObject({ status: 'completed', autoApply: true });
      expect(done.outputs).toEqual([expect.objectContaining({ kind: 'article', operation: 'update', status: 'applied', appliedAt: expect.stringMatching(ISO_MS), error: null })]);
      expect((await draftOf(target.id)).body.contentMarkdown).toContain('Use the Download button in Settings.');
      expect(await events('task.completed', done.id)).toEqual([expect.objectContaining({ id: done.id, status: 'completed', autoApply: true })]);
      const now = await article(target.id, reader);
      expect(now.body).toMatchObject({ status: 'published', publishedAt: live.publishedAt });
      expect(now.body.contentMarkdown).toBe(live.contentMarkdown);
    });

    it('applies a create as a new draft article', async () => {
      const done = await run({ instruction: 'Write an article about resetting a password', autoApply: true });
      expect(done.outputs).toEqual([
        expect.objectContaining({ kind: 'article', operation: 'create', status: 'applied', appliedAt: expect.stringMatching(ISO_MS), targetArticleId: expect.stringMatching(ARTICLE_ID) }),
      ]);
      const id = done.outputs[0]!.targetArticleId!;
      expect((await article(id)).body).toMatchObject({ status: 'draft', sectionId: general, publishedAt: null });
      expect((await article(id, reader)).status).toBe(404);
    });
  });

  describe('failures', () => {
    it('an update instruction the builtin generator does not understand fails with what it understands; task.failed is recorded', async () => {
      const done = await run({ instruction: 'make it better', targetArticleId: passwordArticle.id });
      expect(done).toMatchObject({
        status: 'failed',
        title: 'Make it better',
        generator: 'builtin',
        attempts: 1,
        outputs: [],
        finishedAt: expect.stringMatching(ISO_MS),
      });
      expect(done.error).toContain('does not understand "make it better"');
      for (const pattern of ['rename X to Y', 'replace X with Y', 'add a section about X', 'append: text', 'rename to X', 'write an article about X', 'create a collection called X', 'AI_PROVIDER=openai']) {
        expect(done.error).toContain(pattern);
      }
      expect(await events('task.failed', done.id)).toEqual([done]);
      expect(await events('task.completed', done.id)).toEqual([]);
      // The target was not touched.
      expect((await draftOf(passwordArticle.id)).status).toBe(404);
    });

    it('a replacement of text the article does not contain fails', async () => {
      const done = await run({ instruction: 'Rename "Nowhere" to "Somewhere"', targetArticleId: passwordArticle.id });
      expect(done).toMatchObject({ status: 'failed', outputs: [] });
      expect(done.error).toContain('"Nowhere" does not occur');
    });
  });

  describe('GET /v1/tasks', () => {
    it('an offset page { items, limit, offset, total }, newest first, items with exactly id, title, status', async () => {
      const first = await createTask({ instruction: 'Write an article about invoices', title: 'Older' });
      await clockPast(first.createdAt);
      const second = await createTask({ instruction: 'Write an article about invoices', title: 'Newer' });
      await settle(first.id);
      await settle(second.id);
      const [{ count }] = await rows<{ count: string }>('SELECT count(*) FROM tasks');

      const res = await t.http.get('/v1/tasks').set(bearer(reader));
      expect(outcome(res)).toMatchObject({ status: 200 });
      expect(Object.keys(res.body).sort()).toEqual(['items', 'limit', 'offset', 'total']);
      expect(res.body).toMatchObject({ limit: 20, offset: 0, total: Number(count) });
      expect(res.body.items).toHaveLength(Math.min(20, Number(count)));
      for (const item of res.body.items) expect(Object.keys(item).sort()).toEqual(['id', 'status', 'title']);
      expect(res.body.items.slice(0, 2)).toEqual([
        { id: second.id, title: 'Newer', status: 'completed' },
        { id: first.id, title: 'Older', status: 'completed' },
      ]);

      const paged = await t.http.get('/v1/tasks').query({ limit: 1, offset: 1 }).set(bearer(reader));
      expect(outcome(paged)).toMatchObject({ status: 200, body: { items: [{ id: first.id }], limit: 1, offset: 1, total: Number(count) } });

      const all = await t.http.get('/v1/tasks').query({ limit: 100 }).set(bearer(reader)).expect(200);
      const ordered = await rows<{ id: string }>('SELECT id FROM tasks ORDER BY created_at DESC, id DESC');
      expect(all.body.items.map((i: { id: string }) => i.id)).toEqual(ordered.slice(0, 100).map((r) => r.id));

      const past = await t.http.get('/v1/tasks').query({ offset: Number(count) }).set(bearer(reader));
      expect(outcome(past)).toMatchObject({ status: 200, body: { items: [], offset: Number(count), total: Number(count) } });
    });

    it('400 for limit 0 or 101, offset -1, or a non-integer', async () => {
      for (const [query, field] of [
        [{ limit: 0 }, 'limit'],
        [{ limit: 101 }, 'limit'],
        [{ limit: 'ten' }, 'limit'],
        [{ offset: -1 }, 'offset'],
        [{ offset: 1.5 }, 'offset'],
      ] as const) {
        const res = await t.http.get('/v1/tasks').query(query).set(bearer(reader));
        expect({ query, ...outcome(res) }).toMatchObject({ query, status: 400, body: { code: 'invalid_request' } });
        expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      }
    });
  });

  describe('GET /v1/tasks/{id}', () => {
    let task: Task;

    beforeAll(async () => {
      task = await run({ instruction: 'Write an article about invoices' });
    });

    it('content:read (and content:publish) keys get exactly { id, title, status }', async () => {
      for (const key of [reader, publisher]) {
        const res = await t.http.get(`/v1/tasks/${task.id}`).set(bearer(key));
        expect(outcome(res)).toMatchObject({ status: 200 });
        expect(res.body).toEqual({ id: task.id, title: task.title, status: 'completed' });
      }
    });

    it('content:write and legacy keys get the whole task with its outputs', async () => {
      for (const key of [writer, legacy]) {
        const res = await t.http.get(`/v1/tasks/${task.id}`).set(bearer(key));
        expect(outcome(res)).toMatchObject({ status: 200 });
        expect(Object.keys(res.body).sort()).toEqual(TASK_KEYS);
        expect(res.body).toEqual(task);
        expect(res.body.outputs).toHaveLength(1);
      }
    });

    it('a task without a title is named after its instruction, never after its target: content:read never sees a draft title', async () => {
      const live = await publishedArticle('Live title for tasks', 'Live text.');
      const pending = await t.http.patch(`/v1/articles/${live.id}`).set(bearer(writer)).send({ title: 'Secret pending draft title' });
      expect(outcome(pending)).toMatchObject({ status: 200 });
      const neverLive = await t.http.post('/v1/articles').set(bearer(writer)).send({ title: 'Secret unpublished article', sectionId: general, markdown: 'Draft.' });
      expect(outcome(neverLive)).toMatchObject({ status: 201 });
      for (const targetArticleId of [live.id, neverLive.body.id as string]) {
        const task = await run({ instruction: 'Make this article friendlier', targetArticleId });
        expect(task.title).toBe('Make this article friendlier');
        const seen = JSON.stringify([
          (await t.http.get(`/v1/tasks/${task.id}`).set(bearer(reader)).expect(200)).body,
          (await t.http.get('/v1/tasks').query({ limit: 100 }).set(bearer(reader)).expect(200)).body,
        ]);
        expect(seen).not.toContain('Secret');
      }
    });

    it('404 for an unknown id', async () => {
      for (const key of [reader, writer]) {
        const res = await t.http.get(`/v1/tasks/${UNKNOWN_TASK}`).set(bearer(key));
        expect(outcome(res)).toMatchObject({ status: 404, body: { code: 'not_found' } });
      }
      expect((await t.http.get('/v1/tasks/not-a-task').set(bearer(writer))).status).toBe(404);
    });
  });

  describe('cancel', () => {
    it('409 for a completed or failed task; 404 for an unknown one', async () => {
      const completed = await run({ instruction: 'Write an article about invoices' });
      const failed = await run({ instruction: 'make it better', targetArticleId: passwordArticle.id });
      for (const done of [completed, failed]) {
        const res = await t.http.post(`/v1/tasks/${done.id}/cancel`).set(bearer(writer));
        expect(outcome(res)).toMatchObject({ status: 409, body: { code: 'invalid_state' } });
        expect(await getTask(done.id)).toEqual(done);
      }
      expect((await t.http.post(`/v1/tasks/${UNKNOWN_TASK}/cancel`).set(bearer(writer))).status).toBe(404);
    });

    it('the outputs of a task cancelled after they were stored are discarded: apply and reject are 409', async () => {
      const done = await run({ instruction: 'Create a section called Cancelled midway' });
      const output = done.outputs![0]!;
      // The state a cancel leaves when it lands between storing the outputs and completing the task.
      await rows("UPDATE tasks SET status = 'cancelled' WHERE id = $1", [done.id]);
      for (const verb of ['apply', 'reject'] as const) {
        const res = await decide(done.id, output.id, verb, 409);
        expect(res.body).toMatchObject({ code: 'invalid_state', error: expect.stringContaining('cancelled') });
      }
      expect((await getTask(done.id)).outputs![0]).toMatchObject({ status: 'proposed', appliedAt: null });
    });
  });

  describe('an API process that runs no jobs (the task waits on Redis), then a job runner on the same database', () => {
    let api: TestApp;
    let runner: TestApp | undefined;
    let queue: Queue;
    let key: string;
    let created: Task;
    let cancelled: Task;

    beforeAll(async () => {
      api = await startTestApp({ redis: true, runsJobs: false, env: NO_LIMITS });
      queue = new Queue(JobName.RunTask, { connection: { url: TEST_REDIS_URL }, prefix: api.redisPrefix! });
      key = await api.key(['content:write']);
    });
    afterAll(async () => {
      await queue?.close();
      await runner?.close();
      await api?.close();
    });

    it('POST → 202: the task as created (queued, tsk_ id, title null when omitted, no outputs), its run-task job waiting', async () => {
      const res = await api.http.post('/v1/tasks').set(bearer(key)).send({ instruction: 'Write an article about invoices' });
      expect(outcome(res)).toMatchObject({ status: 202 });
      expect(Object.keys(res.body).sort()).toEqual(TASK_KEYS);
      expect(res.body).toEqual({
        id: expect.stringMatching(TASK_ID),
        title: null,
        status: 'queued',
        instruction: 'Write an article about invoices',
        targetArticleId: null,
        targetCollectionId: null,
        targetSectionId: null,
        autoApply: false,
        generator: null,
        error: null,
        attempts: 0,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
        startedAt: null,
        finishedAt: null,
        outputs: [],
      });
      expect(res.body.updatedAt).toBe(res.body.createdAt);
      created = res.body;
      expect(await (await queue.getJob(created.id))?.getState()).toBe('waiting');
      expect((await api.http.get(`/v1/tasks/${created.id}`).set(bearer(key)).expect(200)).body).toEqual(created);
    });

    it('cancel a queued task → cancelled (title generated, finishedAt set); cancel again → 409', async () => {
      const res = await api.http.post(`/v1/tasks/${created.id}/cancel`).set(bearer(key));
      expect(outcome(res)).toMatchObject({ status: 200 });
      expect(res.body).toEqual({
        ...created,
        status: 'cancelled',
        title: 'Invoices',
        updatedAt: expect.stringMatching(ISO_MS),
        finishedAt: expect.stringMatching(ISO_MS),
      });
      cancelled = res.body;
      const again = await api.http.post(`/v1/tasks/${created.id}/cancel`).set(bearer(key));
      expect(outcome(again)).toMatchObject({ status: 409, body: { code: 'invalid_state' } });
      expect((await api.http.get(`/v1/tasks/${created.id}`).set(bearer(key)).expect(200)).body).toEqual(cancelled);
    });

    it('a cancelled task never runs: a job runner started on the same database and Redis takes its job and leaves it cancelled', async () => {
      runner = await startTestApp({ databaseUrl: api.databaseUrl!, redisPrefix: api.redisPrefix!, env: NO_LIMITS });
      await eventually(async () => (await queue.getJob(created.id)) === undefined, 'the run-task job to be processed and removed');
      const after = await api.http.get(`/v1/tasks/${created.id}`).set(bearer(key)).expect(200);
      expect(after.body).toEqual(cancelled);
      expect(after.body).toMatchObject({ status: 'cancelled', attempts: 0, startedAt: null, outputs: [] });
      // The runner does run tasks: one created now completes.
      const next = await runner.http.post('/v1/tasks').set(bearer(key)).send({ instruction: 'Write an article about invoices' }).expect(202);
      let status = 'queued';
      await eventually(async () => {
        status = (await runner!.http.get(`/v1/tasks/${next.body.id}`).set(bearer(key)).expect(200)).body.status;
        return status !== 'queued' && status !== 'running';
      }, 'the next task to finish');
      expect(status).toBe('completed');
      expect((await api.http.get(`/v1/tasks/${created.id}`).set(bearer(key)).expect(200)).body).toEqual(cancelled);
    });
  });

  describe('scopes', () => {
    let task: Task;
    let output: TaskOutput;

    beforeAll(async () => {
      task = await run({ instruction: 'Write an article about invoices' });
      output = task.outputs[0]!;
    });

    it('content:write for POST, cancel, outputs, apply and reject: 403 with content:read, nothing changes', async () => {
      const requests: Array<[string, () => HttpRequest]> = [
        ['POST /tasks', () => t.http.post('/v1/tasks').send({ instruction: 'Write an article about invoices' })],
        ['cancel', () => t.http.post(`/v1/tasks/${task.id}/cancel`)],
        ['GET output', () => t.http.get(`/v1/tasks/${task.id}/outputs/${output.id}`)],
        ['apply', () => t.http.post(`/v1/tasks/${task.id}/outputs/${output.id}/apply`)],
        ['reject', () => t.http.post(`/v1/tasks/${task.id}/outputs/${output.id}/reject`)],
      ];
      const [{ count: before }] = await rows<{ count: string }>('SELECT count(*) FROM tasks');
      for (const [what, request] of requests) {
        for (const key of [reader, publisher, hooks]) {
          const res = await request().set(bearer(key));
          expect({ what, ...outcome(res) }).toMatchObject({ what, status: 403, body: { code: 'insufficient_scope' } });
          expect(res.body.error).toContain('content:write');
        }
        const res = await request();
        expect({ what, ...outcome(res) }).toMatchObject({ what, status: 401, body: { code: 'unauthorized' } });
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      }
      const [{ count: after }] = await rows<{ count: string }>('SELECT count(*) FROM tasks');
      expect(after).toBe(before);
      expect(await getTask(task.id)).toEqual(task);
    });

    it('content:read for the list and GET one: 403 for a key with only webhooks:manage, 401 without a key', async () => {
      for (const path of ['/v1/tasks', `/v1/tasks/${task.id}`]) {
        const forbidden = await t.http.get(path).set(bearer(hooks));
        expect(outcome(forbidden)).toMatchObject({ status: 403, body: { code: 'insufficient_scope' } });
        expect(forbidden.body.error).toContain('content:read');
        const anonymous = await t.http.get(path);
        expect(outcome(anonymous)).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
        const bad = await t.http.get(path).set(bearer('hck_notarealkeynotarealkeynotarealkeynotarealkey'));
        expect(outcome(bad)).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
      }
    });
  });

  describe('at-least-once runs', () => {
    it('running a completed task again changes nothing: same outputs, still completed', async () => {
      const done = await run({ instruction: 'Write an article about how to reset a password' });
      const runTask = t.app.get(RunTaskUseCase);
      await runTask.execute(done.id, false);
      await runTask.execute(done.id, true);
      expect(await getTask(done.id)).toEqual(done);
      expect(await rows('SELECT id FROM task_outputs WHERE task_id = $1', [done.id])).toEqual([{ id: done.outputs[0]!.id }]);
      expect(await events('task.completed', done.id)).toHaveLength(1);
    });

    it('a task left running by a dead worker is queued again by RecoverTasksUseCase and completes, its outputs replaced', async () => {
      const done = await run({ instruction: 'Write an article about invoices' });
      await rows("UPDATE tasks SET status = 'running', started_at = now() - interval '1 day', finished_at = NULL WHERE id = $1", [done.id]);
      expect((await getTask(done.id)).status).toBe('running');

      const recovered = await t.app.get(RecoverTasksUseCase).execute();
      expect(recovered).toBeGreaterThanOrEqual(1);
      const again = await settle(done.id);
      expect(again).toMatchObject({ status: 'completed', attempts: 2, title: done.title, error: null });
      expect(Date.parse(again.startedAt!)).toBeGreaterThan(Date.now() - 60_000);
      expect(again.outputs).toEqual([{ ...done.outputs[0]!, id: expect.stringMatching(OUTPUT_ID) }]);
      expect(await rows('SELECT count(*)::int AS n FROM task_outputs WHERE task_id = $1', [done.id])).toEqual([{ n: 1 }]);
      expect(await events('task.completed', done.id)).toHaveLength(2);
      // Nothing else is stale now.
      expect(await t.app.get(RecoverTasksUseCase).execute()).toBe(0);
    });
  });
});
