import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import type { Response } from 'supertest';
import { newId, type Scope, SCOPES } from '#core';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { errorBody } from '../support/errors.js';
import { polling } from '../support/eventually.js';

// Booting an app against a fresh database can take a few seconds on a busy machine. The e2e project's
// testTimeout is not applied (jest-circus takes testTimeout from the global config), so set it here.
jest.setTimeout(60_000);

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/**
 * Every route of the API with the scope it requires (CONTRACT §3), its success status and a valid body.
 * `{section}` and `{collection}` are replaced by fresh resources for every request, `{image}` by a stored image,
 * `{webhook}` by a fresh enabled endpoint and `{delivery}` by a failed delivery of it, `{task}` by a completed task and
 * `{output}` by its proposed output, `{cancellable}` by a queued task, `{feedback}` by a feedback entry on `{article}`,
 * `{user}` by a help center user and `{n}` by the case's number (see fixtures()).
 * Adding a route: one line here (the OpenAPI check below fails until it is added).
 */
interface RouteCase {
  readonly method: Method;
  readonly path: string;
  /** null: a public route, which every key (and no key) may use. */
  readonly scope: Scope | null;
  readonly status: number;
  readonly body?: object;
}

const ROUTES: readonly RouteCase[] = [
  { method: 'get', path: '/v1/helpdesk', scope: 'content:read', status: 200 },
  { method: 'patch', path: '/v1/helpdesk', scope: 'content:write', status: 200, body: { name: 'Renamed helpdesk' } },
  { method: 'get', path: '/v1/sections', scope: 'content:read', status: 200 },
  { method: 'post', path: '/v1/sections', scope: 'content:write', status: 201, body: { name: 'Created section' } },
  { method: 'get', path: '/v1/sections/{section}', scope: 'content:read', status: 200 },
  { method: 'patch', path: '/v1/sections/{section}', scope: 'content:write', status: 200, body: { name: 'Renamed section' } },
  { method: 'delete', path: '/v1/sections/{section}', scope: 'content:write', status: 200 },
  { method: 'put', path: '/v1/sections/{section}/translations/fr', scope: 'content:write', status: 201, body: { name: 'Section FR' } },
  { method: 'get', path: '/v1/collections', scope: 'content:read', status: 200 },
  { method: 'post', path: '/v1/collections', scope: 'content:write', status: 201, body: { title: 'Created collection' } },
  { method: 'get', path: '/v1/collections/{collection}', scope: 'content:read', status: 200 },
  { method: 'patch', path: '/v1/collections/{collection}', scope: 'content:write', status: 200, body: { title: 'Renamed collection' } },
  { method: 'delete', path: '/v1/collections/{collection}', scope: 'content:write', status: 200 },
  { method: 'post', path: '/v1/collections/{collection}/move', scope: 'content:write', status: 200, body: { section_id: '{section}' } },
  { method: 'put', path: '/v1/collections/{collection}/translations/fr', scope: 'content:write', status: 201, body: { title: 'Collection FR' } },
  { method: 'post', path: '/v1/articles', scope: 'content:write', status: 201, body: { title: 'Created article', sectionId: '{default}', markdown: 'Hello' } },
  { method: 'get', path: '/v1/articles', scope: 'content:read', status: 200 },
  { method: 'get', path: '/v1/articles/{article}', scope: 'content:read', status: 200 },
  { method: 'patch', path: '/v1/articles/{article}', scope: 'content:write', status: 200, body: { title: 'Renamed article' } },
  { method: 'delete', path: '/v1/articles/{article}', scope: 'content:publish', status: 200 },
  { method: 'get', path: '/v1/articles/{article}/draft', scope: 'content:write', status: 200 },
  { method: 'delete', path: '/v1/articles/{article}/draft', scope: 'content:write', status: 200 },
  { method: 'post', path: '/v1/articles/{article}/publish', scope: 'content:publish', status: 200 },
  { method: 'post', path: '/v1/articles/{article}/unpublish', scope: 'content:publish', status: 200 },
  { method: 'post', path: '/v1/articles/{trashed}/restore', scope: 'content:write', status: 200 },
  { method: 'post', path: '/v1/articles/{article}/move', scope: 'content:write', status: 200, body: { collection_id: '{collection}', section_id: '{default}' } },
  { method: 'get', path: '/v1/articles/{article}/revisions', scope: 'content:read', status: 200 },
  { method: 'get', path: '/v1/articles/{article}/revisions/1', scope: 'content:read', status: 200 },
  { method: 'get', path: '/v1/articles/{article}/revisions/1/diff?against=1', scope: 'content:read', status: 200 },
  { method: 'get', path: '/v1/articles/search?query=matrix', scope: 'content:read', status: 200 },
  { method: 'get', path: '/v1/articles/translations/missing', scope: 'content:read', status: 200 },
  { method: 'get', path: '/v1/articles/{article}/translations', scope: 'content:read', status: 200 },
  { method: 'put', path: '/v1/articles/{article}/translations/fr', scope: 'content:write', status: 200, body: { title: 'Article FR', markdown: 'Bonjour' } },
  { method: 'post', path: '/v1/articles/{article}/translations/fr/publish', scope: 'content:publish', status: 200 },
  { method: 'get', path: '/static/user-images/{image}', scope: null, status: 200 },
  { method: 'post', path: '/v1/webhooks', scope: 'webhooks:manage', status: 201, body: { url: 'https://192.0.2.1/created', events: ['webhook.test'], description: 'Created endpoint' } },
  { method: 'get', path: '/v1/webhooks', scope: 'webhooks:manage', status: 200 },
  { method: 'get', path: '/v1/webhooks/{webhook}', scope: 'webhooks:manage', status: 200 },
  { method: 'patch', path: '/v1/webhooks/{webhook}', scope: 'webhooks:manage', status: 200, body: { url: 'https://192.0.2.2/renamed', description: 'Renamed endpoint' } },
  { method: 'delete', path: '/v1/webhooks/{webhook}', scope: 'webhooks:manage', status: 200 },
  { method: 'post', path: '/v1/webhooks/{webhook}/enable', scope: 'webhooks:manage', status: 200 },
  { method: 'post', path: '/v1/webhooks/{webhook}/disable', scope: 'webhooks:manage', status: 200 },
  { method: 'post', path: '/v1/webhooks/{webhook}/secret/rotate', scope: 'webhooks:manage', status: 200 },
  { method: 'get', path: '/v1/webhooks/{webhook}/deliveries', scope: 'webhooks:manage', status: 200 },
  { method: 'get', path: '/v1/webhooks/{webhook}/deliveries/{delivery}', scope: 'webhooks:manage', status: 200 },
  { method: 'post', path: '/v1/webhooks/{webhook}/deliveries/{delivery}/retry', scope: 'webhooks:manage', status: 202 },
  { method: 'post', path: '/v1/webhooks/{webhook}/test', scope: 'webhooks:manage', status: 202 },
  { method: 'post', path: '/v1/tasks', scope: 'content:write', status: 202, body: { instruction: 'Create a section called Matrix created {n}' } },
  { method: 'get', path: '/v1/tasks', scope: 'content:read', status: 200 },
  { method: 'get', path: '/v1/tasks/{task}', scope: 'content:read', status: 200 },
  { method: 'post', path: '/v1/tasks/{cancellable}/cancel', scope: 'content:write', status: 200 },
  { method: 'get', path: '/v1/tasks/{task}/outputs/{output}', scope: 'content:write', status: 200 },
  { method: 'post', path: '/v1/tasks/{task}/outputs/{output}/apply', scope: 'content:write', status: 200 },
  { method: 'post', path: '/v1/tasks/{task}/outputs/{output}/reject', scope: 'content:write', status: 200 },
  { method: 'get', path: '/v1/feedback', scope: 'analytics:read', status: 200 },
  { method: 'patch', path: '/v1/feedback/{feedback}', scope: 'content:write', status: 200, body: { resolved: true } },
  { method: 'get', path: '/v1/articles/{article}/feedback/summary', scope: 'analytics:read', status: 200 },
  { method: 'post', path: '/v1/users', scope: 'content:write', status: 201, body: { email: 'created-{n}@example.test', name: 'Created user' } },
  { method: 'get', path: '/v1/users', scope: 'content:write', status: 200 },
  { method: 'get', path: '/v1/users/{user}', scope: 'content:write', status: 200 },
  { method: 'patch', path: '/v1/users/{user}', scope: 'content:write', status: 200, body: { name: 'Renamed user' } },
  { method: 'get', path: '/v1/public/articles', scope: null, status: 200 },
  { method: 'get', path: '/v1/public/articles/{article}', scope: null, status: 200 },
  { method: 'post', path: '/v1/public/articles/{article}/feedback', scope: null, status: 201, body: { type: 'negative', feedback: 'Matrix feedback {n}' } },
];

/** Which keys pass a route's scope: content:write and content:publish imply content:read; null (legacy) is all. */
const GRANTS: Readonly<Record<Scope, readonly Scope[]>> = {
  'content:read': ['content:read'],
  'content:write': ['content:write', 'content:read'],
  'content:publish': ['content:publish', 'content:read'],
  'analytics:read': ['analytics:read'],
  'conversations:read': ['conversations:read'],
  'webhooks:manage': ['webhooks:manage'],
};

interface KeyCase {
  readonly label: string;
  readonly scopes: readonly Scope[] | null;
}

const KEYS: readonly KeyCase[] = [
  ...SCOPES.map((scope) => ({ label: scope, scopes: [scope] })),
  { label: 'analytics:read + conversations:read + webhooks:manage', scopes: ['analytics:read', 'conversations:read', 'webhooks:manage'] },
  { label: 'content:read + content:publish', scopes: ['content:read', 'content:publish'] },
  { label: 'legacy (null scopes)', scopes: null },
];

function allows(key: KeyCase, route: RouteCase): boolean {
  const required = route.scope;
  return required === null || key.scopes === null || key.scopes.some((scope) => GRANTS[scope].includes(required));
}

const CASES = ROUTES.flatMap((route) => KEYS.map((key) => ({ route, key, allowed: allows(key, route) })));

interface Ids {
  readonly section: string;
  readonly collection: string;
  readonly article: string;
  readonly trashed: string;
  readonly webhook: string;
  readonly delivery: string;
  /** The case's number, for what must be unique per case (emails). */
  readonly n: number;
  /** Created only for routes that use them (see fixtures()). */
  readonly task?: string;
  readonly output?: string;
  readonly cancellable?: string;
  readonly feedback?: string;
  readonly user?: string;
}

const eventually = polling({ timeoutMs: 15_000, intervalMs: 10 });

/**
 * Fields of a webhook endpoint that only a request can change. A delivery attempt still in flight when a case
 * starts (the fixture's test delivery) may bump failureCount and lastFailureAt (lastSuccessAt never moves: the
 * TEST-NET-1 target never answers); updatedAt is written by requests only (and by auto-disabling, which needs
 * WEBHOOK_DISABLE_MIN_FAILURES = 10 failures), so it stays in and shows a refused enable or secret rotation.
 */
function endpointState(endpoint: unknown): unknown {
  const { failureCount: _failures, lastFailureAt: _lastFailure, lastSuccessAt: _lastSuccess, ...rest } = endpoint as Record<string, unknown>;
  return rest;
}

describe('scope matrix: every route against every kind of key', () => {
  let t: TestApp;
  /** The app's database, for the queued task no job runs (see cancellableTask()). */
  let db: pg.Client;
  let admin: string;
  let defaultSection: string;
  /** `<sha256>.png` of an image stored from an article body. */
  let imageName: string;
  /**
   * The current case's trashed article (trashed articles leave the article list), read whole by state(). Only the
   * current case's: no route acts on an earlier case's, and reading them all made every case slower than the last.
   */
  const trashedIds: string[] = [];
  /** Webhook endpoints created by fixtures() and not yet deleted by cleanUp(). */
  const webhookIds = new Set<string>();
  /** Tasks created by fixtures() for the current case, read whole by state(). */
  const taskIds = new Set<string>();
  /** Numbers the cases (fixtures() calls). */
  let caseNumber = 0;
  const plainKeys = new Map<string, string>();

  /** Every item of a cursor list, all pages. */
  async function all(path: string, extra = ''): Promise<unknown[]> {
    const items: unknown[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&start_cursor=${encodeURIComponent(cursor)}` : '';
      const res = await t.http.get(`${path}?page_size=100${extra}${query}`).set(bearer(admin)).expect(200);
      items.push(...(res.body.results as unknown[]));
      cursor = res.body.next_cursor as string | null;
    } while (cursor);
    return items;
  }

  /** Every task of the (offset-paginated) task list, newest first. */
  async function allTasks(): Promise<Array<{ id: string; title: string | null; status: string }>> {
    const items: Array<{ id: string; title: string | null; status: string }> = [];
    for (;;) {
      const res = await t.http.get(`/v1/tasks?limit=100&offset=${items.length}`).set(bearer(admin)).expect(200);
      const page = res.body.items as typeof items;
      items.push(...page);
      if (page.length === 0 || items.length >= (res.body.total as number)) return items;
    }
  }

  /**
   * Everything any route of the matrix could change, read with the admin key. Webhook deliveries are kept whole:
   * the fixture's delivery is failed (not pending) before a case starts, and delivery attempts only write pending
   * deliveries. Their attempt history is left out (an attempt in flight when the endpoint was disabled still
   * records itself).
   *
   * Tasks are kept whole too (the list and the case's fixture tasks with their outputs): no task runs while a case
   * does. The fixture task has completed before the case starts, the cancellable one is queued with no job for it
   * (see cancellableTask()), and cleanUp() cancels whatever else is unfinished (a task created by POST /v1/tasks),
   * after which a run writes nothing (claiming and completing need a queued or running task). So a status, attempts
   * or updatedAt that moves is the request's doing. Feedback and help center users have no background work at all.
   */
  async function state(): Promise<unknown> {
    const [helpdesk, sections, collections, articles, trashed, endpoints, webhooks, tasks, taskDetails, feedback, users] = await Promise.all([
      t.http.get('/v1/helpdesk').set(bearer(admin)).expect(200),
      all('/v1/sections'),
      all('/v1/collections'),
      all('/v1/articles', '&status=all&format=json'),
      Promise.all(trashedIds.map((id) => t.http.get(`/v1/articles/${id}`).set(bearer(admin)).then((res) => res.body as unknown))),
      all('/v1/webhooks'),
      Promise.all(
        [...webhookIds].map(async (id) => {
          const endpoint = await t.http.get(`/v1/webhooks/${id}`).set(bearer(admin));
          // Gone (deleted by the request under test): that is the difference to show, not an error of state().
          if (endpoint.status !== 200) return { id, status: endpoint.status };
          return { endpoint: endpointState(endpoint.body), deliveries: await all(`/v1/webhooks/${id}/deliveries`) };
        }),
      ),
      allTasks(),
      Promise.all([...taskIds].map((id) => t.http.get(`/v1/tasks/${id}`).set(bearer(admin)).expect(200).then((res) => res.body as unknown))),
      all('/v1/feedback'),
      all('/v1/users'),
    ]);
    return {
      helpdesk: helpdesk.body,
      sections,
      collections,
      articles,
      trashed,
      endpoints: endpoints.map(endpointState),
      webhooks,
      tasks,
      taskDetails,
      feedback,
      users,
    };
  }

  /**
   * An enabled endpoint with one failed delivery, which retry accepts. The endpoint takes webhook.test only, so the
   * content events of the matrix fan out no deliveries to it. Its test delivery goes to TEST-NET-1 (never answers,
   * so an attempt times out after WEBHOOK_TIMEOUT_MS); disabling the endpoint fails it while it is still pending,
   * and no delivery attempt touches a delivery that is not pending, so it stays as it is until a request retries it.
   */
  async function webhookFixture(): Promise<{ webhook: string; delivery: string }> {
    const endpoint = await t.http
      .post('/v1/webhooks')
      .set(bearer(admin))
      .send({ url: 'https://192.0.2.1/hook', events: ['webhook.test'], description: 'Matrix endpoint' })
      .expect(201);
    const webhook = endpoint.body.id as string;
    webhookIds.add(webhook);
    const test = await t.http.post(`/v1/webhooks/${webhook}/test`).set(bearer(admin)).expect(202);
    await t.http.post(`/v1/webhooks/${webhook}/disable`).set(bearer(admin)).expect(200);
    await t.http.post(`/v1/webhooks/${webhook}/enable`).set(bearer(admin)).expect(200);
    const delivery = await t.http.get(`/v1/webhooks/${webhook}/deliveries/${test.body.delivery_id}`).set(bearer(admin)).expect(200);
    expect({ status: delivery.body.status, error: delivery.body.error }).toEqual({ status: 'failed', error: 'endpoint disabled' });
    return { webhook, delivery: test.body.delivery_id as string };
  }

  /**
   * A task run by the builtin generator to completion, with one proposed output: a new section, so applying it is
   * cheap (cleanUp() deletes the section again).
   */
  async function completedTask(n: number): Promise<{ task: string; output: string }> {
    const created = await t.http.post('/v1/tasks').set(bearer(admin)).send({ instruction: `Create a section called Matrix ${n}` }).expect(202);
    const task = created.body.id as string;
    taskIds.add(task);
    let body: { status: string; outputs: Array<{ id: string; kind: string; status: string }> } | undefined;
    await eventually(async () => {
      body = (await t.http.get(`/v1/tasks/${task}`).set(bearer(admin)).expect(200)).body as typeof body;
      return body!.status !== 'queued' && body!.status !== 'running';
    }, `task ${task} to finish`);
    expect({ status: body!.status, outputs: body!.outputs.map((o) => ({ kind: o.kind, status: o.status })) }).toEqual({
      status: 'completed',
      outputs: [{ kind: 'section', status: 'proposed' }],
    });
    return { task, output: body!.outputs[0]!.id };
  }

  /**
   * A queued task that stays queued: a row written straight into the tasks table (as CreateTaskUseCase writes it),
   * without a run-task job. Tasks only run through that job; the one other way in, the recovery sweep, takes queued
   * tasks not updated for a minute, and cleanUp() cancels this one long before (a case takes a second or two). A
   * task created through the API would be finished by the in-process worker within milliseconds: a cancel would
   * then race it (200 or 409).
   */
  async function cancellableTask(n: number): Promise<string> {
    const id = newId('tsk');
    await db.query(
      `INSERT INTO tasks (id, title, instruction, status, auto_apply, created_by_key_id, created_by_scopes, created_at, updated_at)
       VALUES ($1, NULL, $2, 'queued', false, 'matrix', NULL, now(), now())`,
      [id, `Create a section called Matrix cancellable ${n}`],
    );
    taskIds.add(id);
    return id;
  }

  /**
   * Fresh resources for one request, so that deletes, moves and state changes have something to act on: a
   * section, a collection, a published article with an open draft (two revisions), a trashed draft article, and
   * a webhook endpoint with a failed delivery. The tasks, the feedback entry and the help center user only when
   * one of `routes` uses them (`{task}`/`{output}`, `{cancellable}`, `{feedback}`, `{user}`): they take longer.
   */
  async function fixtures(routes: readonly RouteCase[]): Promise<Ids> {
    const n = ++caseNumber;
    const uses = (name: string): boolean => routes.some((route) => JSON.stringify(route).includes(`{${name}}`));
    const webhook = webhookFixture();
    const task = uses('task') || uses('output') ? completedTask(n) : undefined;
    const cancellable = uses('cancellable') ? cancellableTask(n) : undefined;
    const user = uses('user')
      ? t.http
          .post('/v1/users')
          .set(bearer(admin))
          .send({ email: `matrix-${n}@example.test`, name: 'Matrix user' })
          .expect(201)
          .then((res) => res.body.id as string)
      : undefined;
    const section = await t.http.post('/v1/sections').set(bearer(admin)).send({ name: 'Matrix section' }).expect(201);
    const collection = await t.http.post('/v1/collections').set(bearer(admin)).send({ title: 'Matrix collection' }).expect(201);
    const article = await t.http
      .post('/v1/articles')
      .set(bearer(admin))
      .send({ title: 'Matrix article', sectionId: defaultSection, markdown: 'Live', publish: true })
      .expect(201);
    await t.http.patch(`/v1/articles/${article.body.id}`).set(bearer(admin)).send({ markdown: 'Draft' }).expect(200);
    await t.http.put(`/v1/articles/${article.body.id}/translations/fr`).set(bearer(admin)).send({ title: 'Matrice' }).expect(201);
    const trashed = await t.http.post('/v1/articles').set(bearer(admin)).send({ title: 'Matrix trashed', sectionId: defaultSection }).expect(201);
    await t.http.delete(`/v1/articles/${trashed.body.id}`).set(bearer(admin)).expect(200);
    trashedIds.push(trashed.body.id);
    const feedback = uses('feedback')
      ? (await t.http.post(`/v1/public/articles/${article.body.id}/feedback`).send({ type: 'positive', feedback: `Matrix feedback ${n}` }).expect(201)).body.id
      : undefined;
    return {
      section: section.body.id,
      collection: collection.body.id,
      article: article.body.id,
      trashed: trashed.body.id,
      ...(await webhook),
      n,
      ...(await task),
      cancellable: await cancellable,
      feedback: feedback as string | undefined,
      user: await user,
    };
  }

  /**
   * Removes what a case left behind (articles out of the collection first, the collection before the section).
   * Every webhook endpoint goes too (with its deliveries), so no pending delivery or retry of one case is still
   * being attempted during a later one: a job for a delivery that is gone does nothing. Every unfinished task is
   * cancelled (the queued fixture, one created by the request) so none runs during a later case, and the section
   * an applied output created is deleted. Tasks, feedback and help center users cannot be deleted: they stay.
   * The case's articles end up in the trash, so the article list that state() reads does not grow from case to case.
   */
  async function cleanUp(ids: Ids): Promise<void> {
    for (const task of await allTasks()) {
      if (task.status !== 'queued' && task.status !== 'running') continue;
      const res = await t.http.post(`/v1/tasks/${task.id}/cancel`).set(bearer(admin));
      // 409: it finished in the meantime.
      expect([200, 409]).toContain(res.status);
    }
    if (ids.task) {
      const task = await t.http.get(`/v1/tasks/${ids.task}`).set(bearer(admin)).expect(200);
      for (const output of task.body.outputs as Array<{ status: string; targetSectionId: string | null }>) {
        if (output.status === 'applied' && output.targetSectionId) await t.http.delete(`/v1/sections/${output.targetSectionId}`).set(bearer(admin)).expect(200);
      }
    }
    taskIds.clear();
    for (const endpoint of (await all('/v1/webhooks')) as Array<{ id: string }>) {
      await t.http.delete(`/v1/webhooks/${endpoint.id}`).set(bearer(admin)).expect(200);
    }
    webhookIds.clear();
    for (const article of [ids.article, ids.trashed]) {
      await t.http.post(`/v1/articles/${article}/move`).set(bearer(admin)).send({ collection_id: null });
      const res = await t.http.delete(`/v1/articles/${article}`).set(bearer(admin));
      // 409: already trashed (the fixture's trashed article, or the request trashed it).
      expect([200, 409]).toContain(res.status);
    }
    trashedIds.length = 0;
    for (const path of [`/v1/collections/${ids.collection}`, `/v1/sections/${ids.section}`]) {
      const res = await t.http.delete(path).set(bearer(admin));
      expect([200, 404]).toContain(res.status);
    }
  }

  function fill<T>(value: T, ids: Ids): T {
    const filled = JSON.stringify(value)
      .replaceAll('{section}', ids.section)
      .replaceAll('{collection}', ids.collection)
      .replaceAll('{article}', ids.article)
      .replaceAll('{trashed}', ids.trashed)
      .replaceAll('{webhook}', ids.webhook)
      .replaceAll('{delivery}', ids.delivery)
      .replaceAll('{task}', ids.task ?? '')
      .replaceAll('{output}', ids.output ?? '')
      .replaceAll('{cancellable}', ids.cancellable ?? '')
      .replaceAll('{feedback}', ids.feedback ?? '')
      .replaceAll('{user}', ids.user ?? '')
      .replaceAll('{n}', String(ids.n))
      .replaceAll('{default}', defaultSection)
      .replaceAll('{image}', imageName);
    return JSON.parse(filled) as T;
  }

  function send(route: RouteCase, key: string, ids: Ids): Promise<Response> {
    const request = t.http[route.method](fill(route.path, ids)).set(bearer(key));
    return route.body ? request.send(fill(route.body, ids)) : request;
  }

  beforeAll(async () => {
    // The matrix sends a few hundred requests with the admin key, and public feedback from one IP; the rate limits
    // are not under test here.
    // Webhook endpoints point at TEST-NET-1 (192.0.2.0/24, allowed here so no URL needs DNS or a receiver):
    // deliveries to it fail, after WEBHOOK_TIMEOUT_MS at most.
    t = await startTestApp({
      env: {
        HELPDESK_LANGUAGES: 'en,fr',
        RATE_LIMIT_REQUESTS_PER_MINUTE: '1000000',
        RATE_LIMIT_CREATE_ARTICLES_PER_HOUR: '1000000',
        RATE_LIMIT_PUBLIC_FEEDBACK_PER_MINUTE: '1000000',
        WEBHOOK_ALLOWED_NETWORKS: '192.0.2.0/24',
        WEBHOOK_TIMEOUT_MS: '300',
      },
    });
    db = new pg.Client({ connectionString: t.databaseUrl! });
    await db.connect();
    admin = await t.key(null);
    defaultSection = ((await t.http.get('/v1/sections').set(bearer(admin)).expect(200)).body.results as Array<{ id: string }>)[0]!.id;
    for (const key of KEYS) plainKeys.set(key.label, await t.key(key.scopes));
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const withImage = await t.http
      .post('/v1/articles')
      .set(bearer(admin))
      .send({ title: 'Matrix image', sectionId: defaultSection, markdown: `![logo](data:image/png;base64,${png})` })
      .expect(201);
    const json = await t.http.get(`/v1/articles/${withImage.body.id}?format=json`).set(bearer(admin)).expect(200);
    imageName = (JSON.stringify(json.body.contentJson).match(/\/user-images\/([0-9a-f]{64}\.png)/) ?? [])[1]!;
  });
  afterAll(async () => {
    await db?.end();
    await t?.close();
  });

  it('covers exactly the operations the OpenAPI document lists, with the scope it documents', async () => {
    const document = (await t.http.get('/v1/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { 'x-required-scopes'?: string[] }>>;
    };
    const documented = Object.entries(document.paths)
      // Every operation but the health probes (no key, no resources to act on).
      .filter(([path]) => path !== '/healthz' && path !== '/readyz')
      .flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
          .map(([method, operation]) => `${method.toUpperCase()} ${path} ${JSON.stringify(operation['x-required-scopes'])}`),
      )
      .sort();
    const matrix = ROUTES.map((route) => {
      const path = route.path
        .replace(/\{(section|collection|article|trashed|webhook|task|cancellable|feedback|user)\}/, '{id}')
        .replace('{delivery}', '{deliveryId}')
        .replace('{output}', '{outputId}')
        .replace(/^(\/v1\/articles\/\{id\}\/translations\/)fr/, '$1{locale}')
        .replace('/translations/fr', '/translations/{language}')
        .replace(/\/revisions\/\d+/, '/revisions/{revisionId}')
        .replace('{image}', '{name}')
        .replace(/\?.*$/, '');
      return `${route.method.toUpperCase()} ${path} ${JSON.stringify(route.scope === null ? [] : [route.scope])}`;
    }).sort();
    expect(matrix).toEqual(documented);
  });

  it.each(CASES.filter((c) => c.allowed).map((c) => [c.route.method.toUpperCase(), c.route.path, c.key.label, c.route]))(
    '%s %s lets a %s key through',
    async (_method, _path, label, route) => {
      const ids = await fixtures([route as RouteCase]);
      const res = await send(route as RouteCase, plainKeys.get(label as string)!, ids);
      expect({ status: res.status, body: res.status === (route as RouteCase).status ? 'ok' : res.body }).toEqual({
        status: (route as RouteCase).status,
        body: 'ok',
      });
      await cleanUp(ids);
    },
  );

  it.each(CASES.filter((c) => !c.allowed).map((c) => [c.route.method.toUpperCase(), c.route.path, c.key.label, c.route]))(
    '%s %s refuses a %s key with 403 naming the scope, and writes nothing',
    async (_method, _path, label, route) => {
      const ids = await fixtures([route as RouteCase]);
      const before = await state();
      const res = await send(route as RouteCase, plainKeys.get(label as string)!, ids);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(errorBody('insufficient_scope'));
      expect(res.body.error).toContain((route as RouteCase).scope);
      expect(await state()).toEqual(before);
      await cleanUp(ids);
    },
  );

  it('answers the public routes without a key', async () => {
    const ids = await fixtures(ROUTES.filter((r) => r.scope === null));
    for (const route of ROUTES.filter((r) => r.scope === null)) {
      const request = t.http[route.method](fill(route.path, ids));
      const res = await (route.body ? request.send(fill(route.body, ids)) : request);
      expect({ path: route.path, status: res.status }).toEqual({ path: route.path, status: route.status });
    }
    await cleanUp(ids);
  });

  it('checks the scope before validating the body: an invalid body from an unscoped key is 403, not 400', async () => {
    const before = await state();
    const res = await t.http.post('/v1/sections').set(bearer(plainKeys.get('content:read')!)).send({ name: 42, unknown: true });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('insufficient_scope');
    expect(await state()).toEqual(before);
  });

  it('checks the scope before looking the resource up: an unknown ID from an unscoped key is 403, not 404', async () => {
    const res = await t.http.get('/v1/sections/sect_00000000000000000000000000').set(bearer(plainKeys.get('webhooks:manage')!));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('insufficient_scope');
  });
});
