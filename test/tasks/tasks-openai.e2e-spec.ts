import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';
import { type ChatCompletionsServer, type ChatRequest, refusedBaseUrl, replies, type Responder, startChatCompletionsServer } from '../support/chat-completions-server.js';
import { polling } from '../support/eventually.js';
import { ISO_MS, TASK_ID } from '../support/formats.js';
import { outcome } from '../support/outcome.js';
import { defaultSectionId } from '../support/sections.js';
import type { Task } from '../support/tasks.js';

/**
 * AI tasks end to end with AI_PROVIDER=openai (CONTRACT §7): the real API, jobs run in process, against a local
 * OpenAI-compatible model server. Outputs come from the model; malformed output, an unreachable server and a hanging
 * one fail the task with a clear error, and the service keeps serving.
 */

jest.setTimeout(60_000);

const TASK_TIMEOUT_MS = 3_000;

type Json = Record<string, unknown>;

const eventually = polling({ timeoutMs: 20_000, intervalMs: 100, retryErrors: true });

/** A tag that routes a task's model requests to its own reply (see `Harness.route`). */
let tagCounter = 0;
function tag(): string {
  tagCounter += 1;
  return `[case-${tagCounter}]`;
}

class Harness {
  constructor(
    readonly t: TestApp,
    readonly chat: ChatCompletionsServer | null,
    readonly writer: string,
  ) {}

  /** Model requests whose instruction contains `marker` get `responder` (tests may run their tasks side by side). */
  route(marker: string, responder: Responder): void {
    this.chat!.when((r) => r.user?.instruction.includes(marker) ?? false, responder);
  }

  requestsFor(marker: string): ChatRequest[] {
    return this.chat!.completions().filter((r) => r.user?.instruction.includes(marker));
  }

  async create(body: Json): Promise<Task> {
    const res = await this.t.http.post('/v1/tasks').set(bearer(this.writer)).send(body);
    expect(outcome(res)).toMatchObject({ status: 202 });
    return res.body as Task;
  }

  async get(id: string): Promise<Task> {
    const res = await this.t.http.get(`/v1/tasks/${id}`).set(bearer(this.writer));
    expect(outcome(res)).toMatchObject({ status: 200 });
    return res.body as Task;
  }

  /** The task once its status is one of `statuses`. */
  async until(id: string, statuses: readonly string[], timeoutMs = 20_000, check: (task: Task) => boolean = () => true): Promise<Task> {
    let last: Task | undefined;
    return eventually(
      async () => {
        last = await this.get(id);
        return statuses.includes(last.status) && check(last) ? last : undefined;
      },
      `task ${id} to be ${statuses.join(' or ')} (last seen: ${JSON.stringify(last && { status: last.status, attempts: last.attempts, error: last.error })})`,
      timeoutMs,
    );
  }
}

describe('tasks with AI_PROVIDER=openai against a chat-completions server', () => {
  let chat: ChatCompletionsServer;
  let h: Harness;
  let t: TestApp;
  let editor: string;
  let reader: string;
  let general: string;

  beforeAll(async () => {
    chat = await startChatCompletionsServer();
    t = await startTestApp({
      env: {
        ...NO_LIMITS,
        AI_PROVIDER: 'openai',
        AI_BASE_URL: chat.baseUrl,
        AI_MODEL: 'test-model',
        AI_API_KEY: 'sk-e2e-test',
        AI_REQUEST_TIMEOUT_MS: '10000',
        AI_MAX_RETRIES: '1',
        AI_MAX_TOKENS: '2048',
        AI_TASK_TIMEOUT_MS: String(TASK_TIMEOUT_MS),
      },
    });
    h = new Harness(t, chat, await t.key(['content:read', 'content:write']));
    editor = await t.key(['content:read', 'content:write', 'content:publish']);
    reader = await t.key(['content:read']);
    general = await defaultSectionId(t, reader);
  });

  afterAll(async () => {
    await t?.close();
    await chat?.close();
  });

  async function publishedArticle(title: string, markdown: string): Promise<string> {
    const res = await t.http.post('/v1/articles').set(bearer(editor)).send({ title, sectionId: general, markdown, publish: true });
    expect(outcome(res)).toMatchObject({ status: 201, body: { status: 'published' } });
    return res.body.id as string;
  }

  it('a create task completes with the model’s outputs: generator openai:test-model, the title from the instruction (never the model’s); apply makes a draft article', async () => {
    const marker = tag();
    const markdown = 'Open **Billing** and choose Export.\n\n1. Pick a month\n2. Click Download';
    h.route(marker, replies.valid({ title: 'Exporting invoices from Billing', changeTitle: 'How to export invoices', markdown }));
    const instruction = `Write an article about exporting invoices ${marker}`;

    const queued = await h.create({ instruction });
    expect(queued).toMatchObject({ id: expect.stringMatching(TASK_ID), status: 'queued', title: null, generator: null, error: null, attempts: 0, outputs: [] });

    const done = await h.until(queued.id, ['completed', 'failed']);
    expect(done).toMatchObject({
      status: 'completed',
      title: `Exporting invoices ${marker}`,
      generator: 'openai:test-model',
      error: null,
      attempts: 1,
      startedAt: expect.stringMatching(ISO_MS),
      finishedAt: expect.stringMatching(ISO_MS),
    });
    expect(done.outputs).toEqual([
      {
        id: expect.any(String),
        kind: 'article',
        operation: 'create',
        status: 'proposed',
        title: 'How to export invoices',
        targetArticleId: null,
        targetCollectionId: null,
        targetSectionId: null,
        appliedAt: null,
        error: null,
      },
    ]);

    // What the model server got: the configured model, the key, the instruction, no target.
    const [sent, ...more] = h.requestsFor(marker);
    expect(more).toHaveLength(0);
    expect(sent!.path).toBe('/v1/chat/completions');
    expect(sent!.header('authorization')).toBe('Bearer sk-e2e-test');
    expect(sent!.body).toMatchObject({ model: 'test-model', max_tokens: 2048, response_format: { type: 'json_schema', json_schema: { strict: true } } });
    expect(sent!.user).toMatchObject({ instruction, target: null, placeIn: { collectionId: null, sectionId: null } });

    const output = await t.http.get(`/v1/tasks/${done.id}/outputs/${done.outputs[0]!.id}`).set(bearer(h.writer));
    expect(outcome(output)).toMatchObject({ status: 200, body: { title: 'How to export invoices', markdown, diff: null } });

    const applied = await t.http.post(`/v1/tasks/${done.id}/outputs/${done.outputs[0]!.id}/apply`).set(bearer(h.writer));
    expect(outcome(applied)).toMatchObject({ status: 200, body: { status: 'applied', appliedAt: expect.stringMatching(ISO_MS), targetArticleId: expect.stringMatching(/^art_/) } });
    const articleId = applied.body.targetArticleId as string;
    const article = await t.http.get(`/v1/articles/${articleId}`).query({ format: 'markdown' }).set(bearer(h.writer));
    expect(outcome(article)).toMatchObject({ status: 200, body: { title: 'How to export invoices', status: 'draft', sectionId: general } });
    const draft = await t.http.get(`/v1/articles/${articleId}/draft`).query({ format: 'markdown' }).set(bearer(h.writer));
    expect(outcome(draft)).toMatchObject({ status: 200, body: { title: 'How to export invoices' } });
    expect(draft.body.contentMarkdown).toContain('Pick a month');
    expect(draft.body.contentMarkdown).toContain('Download');

    const again = await t.http.post(`/v1/tasks/${done.id}/outputs/${done.outputs[0]!.id}/apply`).set(bearer(h.writer));
    expect(again.status).toBe(409);
  });

  it('a title given with the task is kept over the model’s', async () => {
    const marker = tag();
    h.route(marker, replies.valid({ title: 'The model’s title' }));
    const task = await h.create({ instruction: `Write an article about refunds ${marker}`, title: 'Refunds (my title)' });
    expect(task.title).toBe('Refunds (my title)');
    expect(await h.until(task.id, ['completed', 'failed'])).toMatchObject({ status: 'completed', title: 'Refunds (my title)', generator: 'openai:test-model' });
  });

  it('an update task: the model gets the target’s Markdown, the output diff reflects the model’s Markdown, apply opens a draft (nothing published)', async () => {
    const articleId = await publishedArticle('Reset your password', 'Open Settings.\n\nClick Reset password.');
    const marker = tag();
    h.route(marker, replies.valid({ title: 'Friendlier reset', changeTitle: 'Reset your password easily', markdown: 'Open Settings.\n\nClick Reset password and relax.' }));

    const task = await h.create({ instruction: `Make the password reset article friendlier ${marker}`, targetArticleId: articleId });
    const done = await h.until(task.id, ['completed', 'failed']);
    expect(done).toMatchObject({ status: 'completed', title: `Make the password reset article friendlier ${marker}`, generator: 'openai:test-model', targetArticleId: articleId });
    expect(done.outputs).toEqual([expect.objectContaining({ kind: 'article', operation: 'update', status: 'proposed', title: 'Reset your password easily', targetArticleId: articleId })]);

    const [sent] = h.requestsFor(marker);
    expect(sent!.user!.target).toMatchObject({ kind: 'article', id: articleId, title: 'Reset your password' });
    expect(sent!.user!.target!.markdown).toContain('Click Reset password.');
    expect(sent!.user!.related.map((a) => a.id)).not.toContain(articleId);

    const output = await t.http.get(`/v1/tasks/${done.id}/outputs/${done.outputs[0]!.id}`).set(bearer(h.writer));
    expect(outcome(output)).toMatchObject({ status: 200, body: { operation: 'update', markdown: 'Open Settings.\n\nClick Reset password and relax.' } });
    const diff = output.body.diff as string;
    expect(diff).toContain('--- current');
    expect(diff).toContain('+++ proposed');
    expect(diff).toContain('-# Reset your password\n');
    expect(diff).toContain('+# Reset your password easily\n');
    expect(diff).toContain('-Click Reset password.\n');
    expect(diff).toContain('+Click Reset password and relax.\n');
    expect(diff).toContain(' Open Settings.\n');

    const applied = await t.http.post(`/v1/tasks/${done.id}/outputs/${done.outputs[0]!.id}/apply`).set(bearer(h.writer));
    expect(outcome(applied)).toMatchObject({ status: 200, body: { status: 'applied', targetArticleId: articleId, appliedAt: expect.stringMatching(ISO_MS) } });
    const draft = await t.http.get(`/v1/articles/${articleId}/draft`).query({ format: 'markdown' }).set(bearer(h.writer));
    expect(outcome(draft)).toMatchObject({ status: 200, body: { title: 'Reset your password easily' } });
    expect(draft.body.contentMarkdown).toContain('Click Reset password and relax.');
    // Readers still see the published version.
    const live = await t.http.get(`/v1/articles/${articleId}`).query({ format: 'markdown' }).set(bearer(reader));
    expect(outcome(live)).toMatchObject({ status: 200, body: { title: 'Reset your password', status: 'published' } });
    expect(live.body.contentMarkdown).not.toContain('relax');
  });

  it('autoApply: a collection update from the model is applied when the task completes', async () => {
    const created = await t.http.post('/v1/collections').set(bearer(editor)).send({ title: 'Plans' });
    expect(outcome(created)).toMatchObject({ status: 201 });
    const collectionId = created.body.id as string;
    const marker = tag();
    h.route(marker, replies.valid({ changeTitle: 'Plans and pricing', markdown: 'Everything about plans' }));

    const task = await h.create({ instruction: `Rename the plans collection ${marker}`, targetCollectionId: collectionId, autoApply: true });
    const done = await h.until(task.id, ['completed', 'failed'], 20_000, (tk) => tk.status !== 'completed' || tk.outputs[0]?.status !== 'proposed');
    expect(done.outputs).toEqual([expect.objectContaining({ kind: 'collection', operation: 'update', status: 'applied', targetCollectionId: collectionId, appliedAt: expect.stringMatching(ISO_MS) })]);
    expect(h.requestsFor(marker)[0]!.user!.target).toEqual({ kind: 'collection', id: collectionId, title: 'Plans', markdown: '' });
    const collection = await t.http.get(`/v1/collections/${collectionId}`).set(bearer(reader));
    expect(outcome(collection)).toMatchObject({ status: 200, body: { title: 'Plans and pricing', subtitle: 'Everything about plans' } });
  });

  it('429 with Retry-After: 1, then an answer → the client retries and the task completes in one job attempt', async () => {
    const marker = tag();
    h.route(marker, replies.sequence(replies.rateLimited(1), replies.valid({ title: 'After a rate limit' })));
    const task = await h.create({ instruction: `Write an article about rate limits ${marker}` });
    expect(await h.until(task.id, ['completed', 'failed'])).toMatchObject({ status: 'completed', title: `Rate limits ${marker}`, attempts: 1 });
    const sent = h.requestsFor(marker);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.receivedAt.getTime() - sent[0]!.receivedAt.getTime()).toBeGreaterThanOrEqual(950);
  });

  describe('malformed model output → the task fails (once, not retried) saying so; the service keeps serving', () => {
    const cases: Array<[string, Responder, RegExp, boolean]> = [
      ['content that is not JSON', replies.notJson(), /^The model returned malformed output: not JSON$/, false],
      ['JSON not matching the schema', replies.schemaMismatch(), /^The model returned malformed output: "changes" must be an array of 1 to 10 changes$/, false],
      ['a change of an unknown kind', replies.wrongKind(), /^The model returned malformed output: changes\[0\]\.kind must be one of/, false],
      ['an update of another article', replies.updateOfAnotherTarget(), /^The model returned malformed output: changes\[0\] updates something other than the task's target$/, true],
      ['output cut off at AI_MAX_TOKENS', replies.truncated(), /^The model output was cut off at AI_MAX_TOKENS/, false],
      ['a refusal', replies.refusal('Not allowed.'), /^The model refused: Not allowed\.$/, false],
      ['a 400 from the model server', replies.badRequest('max_tokens is too large for this model'), /^The model server answered HTTP 400: max_tokens is too large for this model$/, false],
    ];

    it.each(cases)('%s', async (_name, responder, error, withTarget) => {
      const marker = tag();
      h.route(marker, responder);
      const targetArticleId = withTarget ? await publishedArticle(`Target ${marker}`, 'Some text.') : undefined;
      const instruction = `Improve the getting started guide ${marker}`;
      const task = await h.create({ instruction, ...(targetArticleId ? { targetArticleId } : {}) });

      const failed = await h.until(task.id, ['completed', 'failed']);
      expect(failed).toMatchObject({ status: 'failed', attempts: 1, generator: 'openai:test-model', outputs: [], finishedAt: expect.stringMatching(ISO_MS) });
      expect(failed.error).toMatch(error);
      expect(failed.title).toBe(`Improve the getting started guide ${marker}`);
      expect(h.requestsFor(marker)).toHaveLength(1);
      // Not queued again: still one attempt a moment later.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await h.get(task.id)).toMatchObject({ status: 'failed', attempts: 1 });

      // The process keeps serving: reads, and a following task completes.
      expect((await t.http.get('/v1/tasks').set(bearer(reader))).status).toBe(200);
      const next = tag();
      const followUp = await h.create({ instruction: `Write an article about onboarding ${next}` });
      expect(await h.until(followUp.id, ['completed', 'failed'])).toMatchObject({ status: 'completed', generator: 'openai:test-model' });
    });
  });

  it('a model server that hangs past AI_TASK_TIMEOUT_MS → the task fails mentioning the time limit', async () => {
    const marker = tag();
    h.route(marker, replies.hang());
    const task = await h.create({ instruction: `Write an article about slow models ${marker}` });
    await eventually(async () => h.requestsFor(marker).length === 1, 'the model request');
    const started = Date.now();
    const failed = await h.until(task.id, ['completed', 'failed'], 15_000);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, outputs: [], generator: 'openai:test-model' });
    expect(failed.error).toMatch(/AI_TASK_TIMEOUT_MS/);
    expect(Date.now() - started).toBeLessThan(TASK_TIMEOUT_MS + 2_000);
    expect(new Date(failed.finishedAt!).getTime() - new Date(failed.startedAt!).getTime()).toBeGreaterThanOrEqual(TASK_TIMEOUT_MS - 100);
    expect(h.requestsFor(marker)).toHaveLength(1);
  });

  it('a task cancelled while the model hangs stays cancelled when its deadline passes', async () => {
    const marker = tag();
    h.route(marker, replies.hang());
    const task = await h.create({ instruction: `Write an article about patience ${marker}` });
    await eventually(async () => h.requestsFor(marker).length === 1, 'the model request');
    const cancelled = await t.http.post(`/v1/tasks/${task.id}/cancel`).set(bearer(h.writer));
    expect(outcome(cancelled)).toMatchObject({ status: 200, body: { status: 'cancelled' } });
    await new Promise((resolve) => setTimeout(resolve, TASK_TIMEOUT_MS + 500));
    expect(await h.get(task.id)).toMatchObject({ status: 'cancelled', error: null, outputs: [] });
  });
});

describe('tasks with AI_PROVIDER=openai when the model server is down (connection refused)', () => {
  let t: TestApp;
  let h: Harness;

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        ...NO_LIMITS,
        AI_PROVIDER: 'openai',
        AI_BASE_URL: await refusedBaseUrl(),
        AI_MODEL: 'test-model',
        AI_REQUEST_TIMEOUT_MS: '1000',
        // One request per job attempt: the job's own retries (RUN_ATTEMPTS = 3, 5 s then 10 s) are what this exercises.
        AI_MAX_RETRIES: '0',
      },
    });
    h = new Harness(t, null, await t.key(['content:read', 'content:write']));
  });

  afterAll(async () => {
    await t?.close();
  });

  it('the job retries (the task stays running meanwhile), then the task fails saying the server could not be reached', async () => {
    const started = Date.now();
    const task = await h.create({ instruction: 'Write an article about outages' });

    // The first attempt fails retryably: the task is still running, with no error, waiting for the job's retry.
    const waiting = await h.until(task.id, ['running', 'failed', 'completed'], 10_000, (tk) => tk.attempts >= 1);
    expect(waiting).toMatchObject({ status: 'running', attempts: 1, error: null });

    const failed = await h.until(task.id, ['completed', 'failed'], 40_000);
    const elapsed = Date.now() - started;
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, generator: 'openai:test-model', outputs: [], title: 'Outages' });
    expect(failed.error).toMatch(/^The model server could not be reached \(.+\), after 1 attempt\(s\)$/);
    // Back-off between job attempts: 5 s, then 10 s.
    expect(elapsed).toBeGreaterThanOrEqual(14_500);

    // Still serving.
    const list = await t.http.get('/v1/tasks').set(bearer(h.writer));
    expect(outcome(list)).toMatchObject({ status: 200, body: { total: 1, items: [{ id: task.id, status: 'failed' }] } });
  });
});
