import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import pg from 'pg';
import { EVENT_TYPES } from '#core';
import { EXAMPLE_IDS, EXAMPLE_WEBHOOK_URL } from '../../apps/api/src/openapi/examples.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { eventually } from '../support/eventually.js';
import { dataUrl, PNG } from '../support/image-server.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * The contract test: the running service, driven through every operation's documented request example (with
 * the prerequisites each needs, under a full-access key) and through one request per error status it can
 * reach, with every exchange passing through Prism's validating proxy, which checks the request and the response
 * (status declared, headers, body) against the document the service serves. Every webhook event that the run
 * causes is validated against the document's `webhooks` section (Ajv, JSON Schema 2020-12). Then Redocly and
 * Spectral lint the served document with the repository's configs, offline; any error or warning fails.
 */
jest.setTimeout(240_000);

const execFileAsync = promisify(execFile);
const BIN = join(process.cwd(), 'node_modules', '.bin');
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
/** Redocly: no telemetry, no update check (CI has no network but the npm registry). */
const OFFLINE = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

interface Parameter {
  in: string;
  name: string;
  example?: unknown;
}
interface HeaderObject {
  required?: boolean;
  $ref?: string;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { headers?: Record<string, HeaderObject> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: object }> } } }>;
  components: { headers: Record<string, HeaderObject> };
}

interface Exchange {
  readonly label: string;
  readonly operationId: string;
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
  /** Prism's findings (the sl-violations header), request and response. */
  readonly violations: Array<{ location: string[]; severity: string; code: string | number; message: string }>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Prism's validating proxy in front of `upstream`, resolved once it listens. */
async function startPrism(documentPath: string, upstream: string): Promise<{ url: string; process: ChildProcess; log: () => string }> {
  const port = await freePort();
  const child = spawn(join(BIN, 'prism'), ['proxy', documentPath, upstream, '--port', String(port), '--host', '127.0.0.1', '--errors', 'false'], {
    env: OFFLINE,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await eventually(async () => output.includes('Prism is listening'), `Prism listening (output so far: ${output.slice(-2000)})`, 60_000);
  return { url: `http://127.0.0.1:${port}`, process: child, log: () => output };
}

describe('OpenAPI contract: every operation through Prism, webhooks against the document, Redocly and Spectral', () => {
  let t: TestApp;
  let key: string;
  let reader: string;
  let doc: Document;
  let dir: string;
  let documentPath: string;
  let prism: Awaited<ReturnType<typeof startPrism>>;
  let receiver: WebhookReceiver;
  const exchanges: Exchange[] = [];
  /** Example value → the real value it stands for in this run. */
  const real = new Map<string, string>();

  const operations = (): Array<{ method: string; path: string; operation: Operation }> =>
    Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ method, path, operation })));

  function find(operationId: string): { method: string; path: string; operation: Operation } {
    const found = operations().find((o) => o.operation.operationId === operationId);
    if (!found) throw new Error(`No operation ${operationId} in the document`);
    return found;
  }

  function substitute<T>(value: T): T {
    if (typeof value === 'string') return (real.get(value) ?? value) as T;
    if (Array.isArray(value)) return value.map(substitute) as T;
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v)])) as T;
    return value;
  }

  /** Sends a request through Prism and records the exchange. */
  async function send(
    label: string,
    operationId: string,
    request: { method: string; path: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; auth?: string | null },
  ): Promise<Exchange> {
    const headers: Record<string, string> = { ...(request.auth === null ? {} : bearer(request.auth ?? key)), ...request.headers };
    let body: string | undefined = request.rawBody;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${prism.url}${request.path}`, { method: request.method.toUpperCase(), headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // binary or text: kept as is
    }
    const violations = JSON.parse(res.headers.get('sl-violations') ?? '[]') as Exchange['violations'];
    const exchange: Exchange = { label, operationId, status: res.status, headers: res.headers, body: parsed, violations };
    exchanges.push(exchange);
    return exchange;
  }

  /** Drives an operation through its documented example: path and query parameters and body, example IDs replaced by real ones. */
  async function drive(operationId: string, options: { headers?: Record<string, string>; auth?: string } = {}): Promise<Exchange> {
    const { method, path, operation } = find(operationId);
    let url = path;
    const query = new URLSearchParams();
    for (const parameter of operation.parameters ?? []) {
      if (parameter.example === undefined) continue;
      const value = substitute(String(parameter.example));
      if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, encodeURIComponent(value));
      if (parameter.in === 'query') query.set(parameter.name, value);
    }
    expect({ operationId, unresolved: /\{\w+\}/.test(url) }).toEqual({ operationId, unresolved: false });
    const example = operation.requestBody?.content['application/json']?.example;
    if (operation.requestBody) expect({ operationId, example: example !== undefined }).toEqual({ operationId, example: true });
    const exchange = await send(`example ${operationId}`, operationId, {
      method,
      path: query.size > 0 ? `${url}?${query}` : url,
      body: example === undefined ? undefined : substitute(example),
      headers: options.headers,
      auth: options.auth,
    });
    expect({ operationId, status: exchange.status, body: exchange.status >= 300 ? exchange.body : 'ok' }).toEqual({
      operationId,
      status: expect.any(Number),
      body: 'ok',
    });
    return exchange;
  }

  /** Calls the service directly (not through Prism), for prerequisites. */
  async function direct(method: 'get' | 'post' | 'patch' | 'put' | 'delete', path: string, body?: object): Promise<Record<string, unknown>> {
    const res = await t.http[method](path).set(bearer(key)).send(body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Record<string, unknown>;
  }

  async function completedTask(body: object): Promise<{ id: string; status: string; outputs: Array<{ id: string; status: string }> }> {
    const created = await direct('post', '/v1/tasks', body);
    return eventually(async () => {
      const task = (await direct('get', `/v1/tasks/${created.id as string}`)) as { id: string; status: string; outputs: Array<{ id: string; status: string }> };
      return ['completed', 'failed'].includes(task.status) ? task : undefined;
    }, `task ${created.id as string} finished`);
  }

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await startTestApp({ env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' } });
    key = await t.key(null);
    reader = await t.key(['content:read']);
    doc = (await t.http.get('/v1/openapi.json').expect(200)).body as Document;
    dir = mkdtempSync(join(tmpdir(), 'hc-contract-'));
    documentPath = join(dir, 'openapi.json');
    writeFileSync(documentPath, JSON.stringify(doc, null, 1));
    prism = await startPrism(documentPath, t.url);
    real.set(EXAMPLE_WEBHOOK_URL, receiver.url('/hook'));
    // Every event the run causes, for the webhooks section.
    await direct('post', '/v1/webhooks', { url: receiver.url('/all'), events: ['*'] });
  });

  afterAll(async () => {
    prism?.process.kill('SIGTERM');
    await t?.close();
    await receiver?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('drives every operation through its documented request example; Prism finds no violation', async () => {
    const set = (example: string, value: unknown) => real.set(example, String(value));

    await drive('Health_live');
    await drive('Health_ready');
    await drive('Helpdesk_get');
    await drive('Helpdesk_update');

    await drive('Sections_list');
    set(EXAMPLE_IDS.section, ((await drive('Sections_create')).body as { id: string }).id);
    await drive('Sections_get');
    await drive('Sections_update');
    await drive('Sections_putTranslationOf');

    set(EXAMPLE_IDS.collection, ((await drive('Collections_create')).body as { id: string }).id);
    await drive('Collections_list');
    await drive('Collections_get');
    await drive('Collections_update');
    await drive('Collections_putTranslationOf');
    await drive('Collections_move');

    const created = await drive('Articles_create');
    set(EXAMPLE_IDS.article, (created.body as { id: string }).id);
    await drive('Articles_list');
    await drive('Articles_get');
    await drive('Articles_draft');
    await drive('Articles_update');
    const revisions = await drive('Articles_revisions');
    set(EXAMPLE_IDS.revision, (revisions.body as { results: Array<{ id: string }> }).results[0]!.id);
    await drive('Articles_revision');
    await drive('Articles_diff');
    await drive('Articles_publish');

    await drive('ArticleTranslations_put');
    await drive('ArticleTranslations_publish');
    await drive('ArticleTranslations_list');
    await drive('ArticleTranslations_missing');
    await drive('ArticleTranslations_search');

    await drive('Public_list');
    await drive('Public_get');
    set(EXAMPLE_IDS.feedback, ((await drive('Public_feedback')).body as { id: string }).id);
    await drive('Feedback_list');
    await drive('Feedback_resolve');
    await drive('Feedback_articleSummary');

    await drive('Articles_move');
    await drive('Articles_unpublish');
    // Discarding needs a published article with an open draft.
    await direct('post', `/v1/articles/${real.get(EXAMPLE_IDS.article)!}/publish`);
    await direct('patch', `/v1/articles/${real.get(EXAMPLE_IDS.article)!}`, { title: 'A draft to discard' });
    await drive('Articles_discard');
    await drive('Articles_trash');
    await drive('Articles_restore');

    // An image stored from an article body.
    await direct('post', '/v1/articles', { title: 'With an image', sectionId: real.get(EXAMPLE_IDS.section), markdown: `![logo](${dataUrl(PNG)})` });
    set(EXAMPLE_IDS.image, `${createHash('sha256').update(PNG).digest('hex')}.png`);
    await drive('MountedUserImages_get');

    set(EXAMPLE_IDS.user, ((await drive('HelpCenterUsers_create')).body as { id: string }).id);
    await drive('HelpCenterUsers_list');
    await drive('HelpCenterUsers_get');
    await drive('HelpCenterUsers_update');

    const task = await drive('Tasks_create');
    set(EXAMPLE_IDS.task, (task.body as { id: string }).id);
    const finished = await eventually(async () => {
      const current = (await direct('get', `/v1/tasks/${real.get(EXAMPLE_IDS.task)!}`)) as { status: string; outputs: Array<{ id: string }> };
      return current.status === 'completed' ? current : undefined;
    }, 'the example task completed');
    set(EXAMPLE_IDS.taskOutput, finished.outputs[0]!.id);
    await drive('Tasks_list');
    await drive('Tasks_get');
    await drive('Tasks_get', { auth: reader });
    await drive('Tasks_output');
    await drive('Tasks_apply');
    const second = await completedTask({ instruction: 'Write an article about invoices' });
    set(EXAMPLE_IDS.task, second.id);
    set(EXAMPLE_IDS.taskOutput, second.outputs[0]!.id);
    await drive('Tasks_reject');
    // Cancelling needs a task that has not finished: a finished one put back in the queue.
    const third = await completedTask({ instruction: 'Write an article about refunds' });
    const client = new pg.Client({ connectionString: t.databaseUrl! });
    await client.connect();
    await client.query("UPDATE tasks SET status = 'queued', started_at = NULL, finished_at = NULL WHERE id = $1", [third.id]);
    await client.end();
    set(EXAMPLE_IDS.task, third.id);
    await drive('Tasks_cancel');
    // task.failed: an instruction the built-in generator does not understand, on a target.
    const failed = await completedTask({ instruction: 'Make it sparkle', targetArticleId: real.get(EXAMPLE_IDS.article) });
    expect(failed.status).toBe('failed');

    set(EXAMPLE_IDS.webhook, ((await drive('Webhooks_create')).body as { id: string }).id);
    await drive('Webhooks_list');
    await drive('Webhooks_get');
    await drive('Webhooks_update');
    set(EXAMPLE_IDS.delivery, ((await drive('Webhooks_test')).body as { delivery_id: string }).delivery_id);
    await eventually(
      async () => ((await direct('get', `/v1/webhooks/${real.get(EXAMPLE_IDS.webhook)!}/deliveries/${real.get(EXAMPLE_IDS.delivery)!}`)).status === 'success' ? true : undefined),
      'the test delivery succeeded',
    );
    await drive('Webhooks_deliveries');
    await drive('Webhooks_delivery');
    await drive('Webhooks_retry');
    await drive('Webhooks_rotate');
    await drive('Webhooks_disable');
    await drive('Webhooks_enable');

    // Deletions, of resources made for them (the examples' section and collection hold content).
    set(EXAMPLE_IDS.collection, (await direct('post', '/v1/collections', { title: 'To delete' })).id);
    await drive('Collections_delete');
    set(EXAMPLE_IDS.section, (await direct('post', '/v1/sections', { name: 'To delete' })).id);
    await drive('Sections_delete');
    await drive('Webhooks_delete');

    const driven = new Set(exchanges.map((e) => e.operationId));
    expect(operations().map((o) => o.operation.operationId).filter((id) => !driven.has(id))).toEqual([]);
    expect(exchanges.filter((e) => e.violations.length > 0).map((e) => ({ label: e.label, status: e.status, violations: e.violations }))).toEqual([]);
  });

  it('answers an error of every status it can cause on purpose, each as documented (status, headers, body)', async () => {
    const article = real.get(EXAMPLE_IDS.article)!;
    const errors: Array<[number, string, Exchange]> = [];
    const expectError = async (status: number, code: string, exchange: Promise<Exchange>) => errors.push([status, code, await exchange]);

    await expectError(400, 'invalid_request', send('400 validation', 'Sections_create', { method: 'post', path: '/v1/sections', body: { name: '' } }));
    await expectError(400, 'invalid_cursor', send('400 cursor', 'Sections_list', { method: 'get', path: '/v1/sections?start_cursor=garbage' }));
    await expectError(401, 'unauthorized', send('401', 'Sections_list', { method: 'get', path: '/v1/sections', auth: null }));
    await expectError(403, 'insufficient_scope', send('403', 'Sections_create', { method: 'post', path: '/v1/sections', body: { name: 'Nope' }, auth: reader }));
    await expectError(404, 'not_found', send('404', 'Sections_get', { method: 'get', path: '/v1/sections/sect_unknown' }));
    const { slug, sectionId } = (await direct('get', `/v1/articles/${article}`)) as { slug: string; sectionId: string };
    await expectError(409, 'slug_taken', send('409', 'Articles_create', { method: 'post', path: '/v1/articles', body: { title: 'Dup', sectionId, markdown: 'x', slug } }));
    await expectError(412, 'precondition_failed', send('412', 'Articles_update', { method: 'patch', path: `/v1/articles/${article}`, body: { title: 'Stale' }, headers: { 'If-Match': '"stale"' } }));
    await expectError(415, 'unsupported_media_type', send('415', 'Sections_create', { method: 'post', path: '/v1/sections', rawBody: 'name=x', headers: { 'content-type': 'text/plain' } }));
    const user = { email: 'idem@example.com' };
    const first = await send('idempotent create', 'HelpCenterUsers_create', { method: 'post', path: '/v1/users', body: user, headers: { 'Idempotency-Key': 'contract-1' } });
    const replay = await send('idempotent replay', 'HelpCenterUsers_create', { method: 'post', path: '/v1/users', body: user, headers: { 'Idempotency-Key': 'contract-1' } });
    expect([first.status, replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 201, 'true']);
    await expectError(422, 'idempotency_key_reused', send('422', 'HelpCenterUsers_create', { method: 'post', path: '/v1/users', body: { email: 'other@example.com' }, headers: { 'Idempotency-Key': 'contract-1' } }));
    const published = ((await direct('post', `/v1/articles/${article}/publish`)) as { id: string }).id;
    let limited: Exchange | undefined;
    // The per-IP limit (10 a minute) counts in fixed windows: 21 tries reach a 429 even when they straddle a window edge.
    for (let i = 0; i < 21 && !limited; i++) {
      const res = await send('429 public feedback', 'Public_feedback', { method: 'post', path: `/v1/public/articles/${published}/feedback`, body: { type: 'positive', feedback: 'Thanks' }, auth: null });
      if (res.status === 429) limited = res;
    }
    errors.push([429, 'rate_limited', limited!]);
    await expectError(502, 'image_upload_failed', send('502', 'Articles_create', { method: 'post', path: '/v1/articles', body: { title: 'Bad image', sectionId, markdown: '![x](http://127.0.0.1:1/x.png)' } }));

    expect(errors.map(([, , e]) => [e.label, e.status, (e.body as { code?: string }).code])).toEqual(errors.map(([status, code, e]) => [e.label, status, code]));
    for (const [, , e] of errors) {
      expect(e.body).toEqual(expect.objectContaining({ requestId: e.headers.get('x-request-id'), docUrl: `http://help.test/docs/errors#${(e.body as { code: string }).code}` }));
    }
    const responseViolations = exchanges
      .filter((e) => e.label.match(/^\d{3}|idempotent/))
      .flatMap((e) => e.violations.filter((v) => v.location[0] === 'response').map((v) => ({ label: e.label, ...v })));
    expect(responseViolations).toEqual([]);
  });

  it('declares every status it answered, and every response carries the headers its declaration requires', () => {
    const resolve = (header: HeaderObject): HeaderObject => (header.$ref ? doc.components.headers[header.$ref.split('/').pop()!]! : header);
    const problems: string[] = [];
    for (const exchange of exchanges) {
      const response = find(exchange.operationId).operation.responses[String(exchange.status)];
      if (!response) {
        problems.push(`${exchange.label}: status ${exchange.status} not declared`);
        continue;
      }
      for (const [name, header] of Object.entries(response.headers ?? {})) {
        if (resolve(header).required && !exchange.headers.has(name)) problems.push(`${exchange.label}: ${exchange.status} lacks ${name}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('sends every webhook event type, each body as its entry in the webhooks section describes it, signed', async () => {
    const seen = () => new Set(receiver.requests.map((r) => r.json<{ type: string }>().type));
    await eventually(async () => EVENT_TYPES.every((type) => seen().has(type)), `every event type delivered (so far: ${[...seen()].join(', ')})`, 30_000);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'doc', components: (doc as unknown as { components: object }).components });
    const invalid: unknown[] = [];
    for (const request of receiver.requests) {
      const body: unknown = request.json();
      const type = (body as { type: string }).type;
      const schema = doc.webhooks[type]?.post.requestBody.content['application/json']!.schema;
      expect({ type, documented: schema !== undefined }).toEqual({ type, documented: true });
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"doc#/components/')) as object);
      if (!validate(body)) invalid.push({ type, errors: validate.errors });
      for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) expect(request.header(header)).toEqual(expect.any(String));
    }
    expect(invalid).toEqual([]);
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
  });

  it('lints clean with Redocly (recommended, redocly.yaml): 0 errors, 0 warnings', async () => {
    const { stdout } = await execFileAsync(join(BIN, 'redocly'), ['lint', documentPath, '--config', 'redocly.yaml', '--format', 'json'], { env: OFFLINE, maxBuffer: 64 * 1024 * 1024 }).catch(
      (error: { stdout: string }) => error,
    );
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; message: string }> };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('lints clean with Spectral (spectral:oas, .spectral.yaml): no result of any severity', async () => {
    const { stdout } = await execFileAsync(join(BIN, 'spectral'), ['lint', documentPath, '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet', '--fail-severity', 'hint'], {
      env: OFFLINE,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout: string }) => error);
    const results = JSON.parse(stdout) as Array<{ code: string; message: string; path: string[] }>;
    expect(results.map((r) => `${r.code}: ${r.message} at ${r.path.join('.')}`)).toEqual([]);
  });
});
