import { randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { eventually } from '../support/eventually.js';
import { CLI, MAIN, runNode } from '../support/processes.js';
import { ServerProcess } from '../support/server-process.js';
import { type ReceivedRequest, startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import type { Delivery } from '../support/webhooks.js';

/**
 * `npm start` on embedded defaults under concurrent load: the REAL built process on its own fresh DATA_DIR,
 * 720 requests 16 at a time (a third of them with made-up keys). Every answer must belong to its own request,
 * every event must be delivered and signed, a key the CLI creates beside the service must work at once, and
 * everything written must survive kill -9 and a restart. `npm test` builds dist/ first.
 */

jest.setTimeout(300_000);

const KEY = /hck_[0-9A-Za-z]{40,}/g;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const WIDTH = 16;
/** Each cycle sends 8 requests with the real key and 4 with made-up keys. */
const CYCLES = 60;
const EVENT_TIMEOUT_MS = 60_000;
/** One request; past it the request counts as failed (a stuck database must not hang the suite). */
const REQUEST_TIMEOUT_MS = 15_000;
/** Past this no further request of the burst is started; the ones not sent are reported. */
const BURST_DEADLINE_MS = 45_000;
const NARROW_PATH = '/narrow-hook';
const HOOK_PATH = '/load';

const LOAD_ENV = {
  RATE_LIMIT_REQUESTS_PER_MINUTE: '100000',
  RATE_LIMIT_CREATE_ARTICLES_PER_HOUR: '100000',
  RATE_LIMIT_PUBLIC_FEEDBACK_PER_MINUTE: '100000',
  WEBHOOK_SWEEP_INTERVAL_MS: '1000',
};

/** Distinguishes this run's data; everything sent with a made-up key carries MADE_UP. */
const RUN = Date.now().toString(36);
const MADE_UP = `madeup${RUN}`;

// ---------------------------------------------------------------------------------------------------------------
// Requests and what went wrong with them

type KeyKind = 'real' | 'made-up' | 'none';

interface Sent {
  readonly method: 'GET' | 'POST' | 'PATCH';
  readonly path: string;
  readonly key: KeyKind;
  readonly body?: unknown;
}

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly json: unknown;
  readonly headers: Headers;
}

type FailureKind =
  | 'not sent (burst deadline)'
  | 'server error (5xx)'
  | 'unexpected status'
  | 'wrong body'
  | 'made-up key accepted'
  | 'real key refused'
  | 'created, then not listed'
  | 'network error'
  | 'event missing'
  | 'event with other data'
  | 'bad signature'
  | 'delivery not successful';

interface Failure {
  readonly kind: FailureKind;
  readonly detail: string;
}

type Json = Record<string, unknown>;

const clip = (text: string, max = 700): string => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);

function describeRequest(sent: Sent): string {
  return `${sent.method} ${sent.path} [${sent.key === 'real' ? 'real key' : sent.key === 'made-up' ? 'made-up key' : 'no key'}]${sent.body === undefined ? '' : ` ${JSON.stringify(sent.body)}`}`;
}

function describeExchange(sent: Sent, answer: Answer): string {
  return `${describeRequest(sent)}\n      → ${answer.status} ${clip(answer.text)}`;
}

/** Field-by-field comparison: `field: expected …, got …` for each difference. */
function differences(actual: unknown, expected: Json): string[] {
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return [`expected an object, got ${JSON.stringify(actual)}`];
  const problems: string[] = [];
  for (const [field, want] of Object.entries(expected)) {
    const got = (actual as Json)[field];
    if (want instanceof RegExp) {
      if (typeof got !== 'string' || !want.test(got)) problems.push(`${field}: expected to match ${want}, got ${JSON.stringify(got)}`);
    } else if (JSON.stringify(got) !== JSON.stringify(want)) {
      problems.push(`${field}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
    }
  }
  return problems;
}

/** Throws one error listing every failure, grouped by kind (at most `perKind` in full each). */
function assertNoFailures(failures: readonly Failure[], title: string, context = '', perKind = 15): void {
  if (failures.length === 0) return;
  const kinds = new Map<FailureKind, Failure[]>();
  for (const failure of failures) kinds.set(failure.kind, [...(kinds.get(failure.kind) ?? []), failure]);
  const lines = [`${title}: ${failures.length} failure(s): ${[...kinds].map(([kind, list]) => `${list.length} ${kind}`).join(', ')}`];
  for (const [kind, list] of kinds) {
    lines.push('', `── ${kind} (${list.length}) ──`);
    for (const failure of list.slice(0, perKind)) lines.push(`  • ${failure.detail}`);
    if (list.length > perKind) lines.push(`  … and ${list.length - perKind} more of this kind`);
  }
  if (context) lines.push('', context);
  throw new Error(lines.join('\n'));
}

/** Runs `tasks` with at most `width` at a time; results in task order. */
async function pool<T>(tasks: ReadonlyArray<() => Promise<T>>, width: number): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, worker));
  return results;
}

function madeUpKey(length: number): string {
  let secret = '';
  for (let i = 0; i < length; i++) secret += BASE62[randomInt(BASE62.length)];
  return `hck_${secret}`;
}

// ---------------------------------------------------------------------------------------------------------------
// What the burst wrote (only from answers that matched their request)

interface CreatedUser { id: string; email: string; name: string; createdAt: string; updatedAt: string }
interface CreatedArticle { id: string; title: string; sectionId: string; marker: string; publishedAt: string | null }
interface CreatedCollection { id: string; title: string; subtitle: string; sectionId: string; createdAt: string }
interface Rename { sectionId: string; name: string; updatedAt: string }
interface CreatedFeedback { id: string; articleId: string; articleTitle: string; type: string; feedback: string; email: string | null; resolved: boolean; createdAt: string; user: { id: string; name: string; email: string } | null }
interface SeededArticle { id: string; title: string }

interface EventExpectation {
  readonly type: string;
  readonly id: string;
  readonly data: Json;
  readonly cause: string;
  /** Only one event of this type for this resource can come (not so for the renames of one section). */
  readonly unique: boolean;
}

describe('embedded mode under concurrent load: 16 requests at a time, then kill -9 and a restart', () => {
  let dataDir: string;
  let receiver: WebhookReceiver;
  let server: ServerProcess;
  const started: ServerProcess[] = [];
  let key: string;
  let webhook: { id: string; secret: string };
  let contentSectionId: string;
  const renameTargets: string[] = [];
  const seededArticles: SeededArticle[] = [];
  const seededUsers: CreatedUser[] = [];
  const knownTitles = new Map<string, string>();

  const users: CreatedUser[] = [];
  const articles: CreatedArticle[] = [];
  const collections: CreatedCollection[] = [];
  const renames: Rename[] = [];
  /** Renames without a valid answer: they may or may not have been applied. */
  const unansweredRenames: Array<{ sectionId: string; name: string }> = [];
  const feedback: CreatedFeedback[] = [];
  const events: EventExpectation[] = [];
  let seeded = false;
  let burstRan = false;

  /** The end of the service's output: stderr, and the log lines of level error or fatal. */
  function serverLog(max = 3000): string {
    const errors = server.stdout.split('\n').filter((line) => /"level":(50|60)\b/.test(line));
    const tail = `${errors.join('\n')}\n${server.stderr}`.trim();
    return `Server output (tail, ${tail.length} chars in all):\n${tail.length > max ? `…${tail.slice(-max)}` : tail || '(nothing)'}`;
  }

  async function send(sent: Sent): Promise<Answer> {
    const token = sent.key === 'real' ? key : sent.key === 'made-up' ? madeUpKey(key.length - 4) : undefined;
    const init: RequestInit = { method: sent.method, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) };
    if (sent.body !== undefined) {
      init.headers = { 'Content-Type': 'application/json' };
      init.body = JSON.stringify(sent.body);
    }
    const res = await server.fetch(sent.path, token, init);
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, text, json, headers: res.headers };
  }

  /** Sends `sent` for the setup steps: any other status than `expected` stops the test with the exchange. */
  async function must<T = Json>(sent: Sent, expected: number): Promise<T> {
    let answer: Answer;
    try {
      answer = await send(sent);
    } catch (error) {
      throw new Error(`${describeRequest(sent)} → ${(error as Error).message}\n${serverLog()}`, { cause: error });
    }
    if (answer.status !== expected) throw new Error(`Expected ${expected}:\n  ${describeExchange(sent, answer)}\n${serverLog()}`);
    return answer.json as T;
  }

  /** Every page of a cursor list (page_size 100). */
  async function everything<T>(path: string): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | null = null;
    do {
      const separator = path.includes('?') ? '&' : '?';
      const page: { results: T[]; has_more: boolean; next_cursor: string | null } = await must(
        { method: 'GET', path: `${path}${separator}page_size=100${cursor ? `&start_cursor=${encodeURIComponent(cursor)}` : ''}`, key: 'real' },
        200,
      );
      if (!Array.isArray(page.results)) throw new Error(`${path}: a page without results: ${clip(JSON.stringify(page))}`);
      items.push(...page.results);
      cursor = page.has_more ? page.next_cursor : null;
    } while (cursor);
    return items;
  }

  /**
   * A request of the burst: records a failure (and answers undefined) unless it got `expected`; a request with a
   * made-up key must get 401 in the error envelope.
   */
  async function call(failures: Failure[], sent: Sent, expected: number): Promise<Answer | undefined> {
    let answer: Answer;
    try {
      answer = await send(sent);
    } catch (error) {
      failures.push({ kind: 'network error', detail: `${describeRequest(sent)}\n      → ${(error as Error).message} (${String((error as Error).cause ?? '')})` });
      return undefined;
    }
    if (answer.status !== expected) {
      // Guards run before validation: any answer but 401 (or a crash) means a made-up key got past authentication.
      const kind: FailureKind =
        answer.status >= 500
          ? 'server error (5xx)'
          : sent.key === 'made-up'
            ? 'made-up key accepted'
            : sent.key === 'real' && answer.status === 401
              ? 'real key refused'
              : 'unexpected status';
      failures.push({ kind, detail: `expected ${expected}: ${describeExchange(sent, answer)}` });
      return undefined;
    }
    return answer;
  }

  function wrongBody(failures: Failure[], sent: Sent, answer: Answer, problems: string[]): boolean {
    if (problems.length === 0) return false;
    failures.push({ kind: 'wrong body', detail: `${problems.join('; ')}\n      ${describeExchange(sent, answer)}` });
    return true;
  }

  beforeAll(async () => {
    if (!existsSync(MAIN) || !existsSync(CLI)) {
      throw new Error(`${MAIN} or ${CLI} does not exist: run \`npm run build\` first (\`npm test\` does).`);
    }
    dataDir = mkdtempSync(join(tmpdir(), 'hc-embedded-load-'));
    receiver = await startReceiver();
    server = ServerProcess.spawn(dataDir, LOAD_ENV);
    started.push(server);
    await server.listening();
    const keys = [...new Set(server.stdout.match(KEY) ?? [])];
    if (keys.length !== 1) throw new Error(`Expected one hck_ key in the first-start banner, found ${keys.length}.\nstdout:\n${server.stdout}`);
    key = keys[0]!;
  });

  afterAll(async () => {
    for (const proc of started) await proc.stop();
    await receiver?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('seeds sections, published articles, users and a webhook endpoint for every event', async () => {
    contentSectionId = (await must<{ id: string }>({ method: 'POST', path: '/v1/sections', key: 'real', body: { name: `Load content ${RUN}` } }, 201)).id;
    for (let i = 0; i < 4; i++) {
      renameTargets.push((await must<{ id: string }>({ method: 'POST', path: '/v1/sections', key: 'real', body: { name: `Rename target ${RUN} ${i}` } }, 201)).id);
    }
    for (let i = 0; i < 4; i++) {
      const title = `Feedback target ${RUN} ${i}`;
      const created = await must<{ id: string }>({ method: 'POST', path: '/v1/articles', key: 'real', body: { title, sectionId: contentSectionId, markdown: `Seeded ${i}.` } }, 201);
      const published = await must<{ status: string; title: string }>({ method: 'POST', path: `/v1/articles/${created.id}/publish`, key: 'real' }, 200);
      expect({ status: published.status, title: published.title }).toEqual({ status: 'published', title });
      seededArticles.push({ id: created.id, title });
      knownTitles.set(created.id, title);
    }
    for (let i = 0; i < 4; i++) {
      seededUsers.push(await must<CreatedUser>({ method: 'POST', path: '/v1/users', key: 'real', body: { email: `reader-${RUN}-${i}@example.com`, name: `Reader ${i}` } }, 201));
    }
    // The endpoint last: seeding is setup, the burst is what is under test.
    const hook = await must<{ id: string; secret: string; events: string[] }>(
      { method: 'POST', path: '/v1/webhooks', key: 'real', body: { url: receiver.url(HOOK_PATH), events: ['*'], description: 'load test' } },
      201,
    );
    expect(hook.secret).toMatch(/^whsec_/);
    expect(hook.events).toEqual(['*']);
    webhook = { id: hook.id, secret: hook.secret };
    // A second endpoint, set up by a key that may read only published content and collections/sections: under the
    // same load it must receive none of the burst's drafts, feedback or tasks.
    const narrowKey = await runNode(CLI, ['api-keys', 'create', '--name', 'narrow hooks', '--scopes', 'webhooks:manage,content:read', '--json'], { DATA_DIR: dataDir });
    expect(narrowKey.code).toBe(0);
    const narrow = await fetch(`${server.url}/v1/webhooks`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${(JSON.parse(narrowKey.stdout) as { key: string }).key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: receiver.url(NARROW_PATH), events: ['*'] }),
    });
    expect(narrow.status).toBe(201);
    seeded = true;
  });

  it(`answers ${CYCLES * 12} requests, 16 at a time, each with its own data; the made-up keys get 401`, async () => {
    if (!seeded) throw new Error('Seeding failed (see the test above): no burst without what it needs');
    const failures: Failure[] = [];
    const counts = { real: 0, madeUp: 0 };

    const createUser = (i: number) => async (): Promise<void> => {
      const body = { email: `user-${RUN}-${i}@example.com`, name: `Load user ${RUN} ${i}` };
      const sent: Sent = { method: 'POST', path: '/v1/users', key: 'real', body };
      counts.real++;
      const answer = await call(failures, sent, 201);
      if (!answer) return;
      if (wrongBody(failures, sent, answer, differences(answer.json, { id: /^hcusr_/, ...body }))) return;
      users.push(answer.json as CreatedUser);
    };

    const renameSection = (i: number) => async (): Promise<void> => {
      const sectionId = renameTargets[i % renameTargets.length]!;
      const name = `Renamed ${RUN} ${i}`;
      const sent: Sent = { method: 'PATCH', path: `/v1/sections/${sectionId}`, key: 'real', body: { name } };
      counts.real++;
      const answer = await call(failures, sent, 200);
      if (!answer || wrongBody(failures, sent, answer, differences(answer.json, { id: sectionId, name }))) {
        unansweredRenames.push({ sectionId, name });
        return;
      }
      renames.push({ sectionId, name, updatedAt: (answer.json as Rename).updatedAt });
      events.push({ type: 'section.updated', id: sectionId, data: { name }, cause: describeRequest(sent), unique: false });
    };

    const createAndPublishArticle = (i: number) => async (): Promise<void> => {
      const title = `Load article ${RUN} ${i}`;
      const marker = `marker-${RUN}-${i}`;
      const create: Sent = { method: 'POST', path: '/v1/articles', key: 'real', body: { title, sectionId: contentSectionId, markdown: `Body ${marker}.` } };
      counts.real++;
      const created = await call(failures, create, 201);
      if (!created) return;
      const json = created.json as Json;
      const createProblems = differences(json, { id: /^art_/, title, sectionId: contentSectionId, collectionId: null, status: 'draft', draft_id: /^drf_/ });
      if (typeof json.contentHtml !== 'string' || !json.contentHtml.includes(marker)) createProblems.push(`contentHtml: expected to contain ${marker}, got ${JSON.stringify(json.contentHtml)}`);
      if (wrongBody(failures, create, created, createProblems)) return;
      const id = json.id as string;
      knownTitles.set(id, title);
      const article: CreatedArticle = { id, title, sectionId: contentSectionId, marker, publishedAt: null };
      articles.push(article);
      events.push({ type: 'article.created', id, data: { title, status: 'draft' }, cause: describeRequest(create), unique: true });

      const publish: Sent = { method: 'POST', path: `/v1/articles/${id}/publish`, key: 'real' };
      counts.real++;
      const published = await call(failures, publish, 200);
      if (!published) return;
      const pub = published.json as Json;
      const publishProblems = differences(pub, { id, title, sectionId: contentSectionId, status: 'published', publishedAt: /^\d{4}-/ });
      if (typeof pub.contentHtml !== 'string' || !pub.contentHtml.includes(marker)) publishProblems.push(`contentHtml: expected to contain ${marker}, got ${JSON.stringify(pub.contentHtml)}`);
      if (wrongBody(failures, publish, published, publishProblems)) return;
      article.publishedAt = pub.publishedAt as string;
      events.push({ type: 'article.published', id, data: { title, status: 'published' }, cause: describeRequest(publish), unique: true });
    };

    const createCollection = (i: number) => async (): Promise<void> => {
      const body = { title: `Load collection ${RUN} ${i}`, subtitle: `Subtitle ${RUN} ${i}`, sectionId: contentSectionId };
      const sent: Sent = { method: 'POST', path: '/v1/collections', key: 'real', body };
      counts.real++;
      const answer = await call(failures, sent, 201);
      if (!answer) return;
      if (wrongBody(failures, sent, answer, differences(answer.json, { id: /^col_/, ...body, parentCollectionId: null }))) return;
      const { id, createdAt } = answer.json as CreatedCollection;
      collections.push({ id, createdAt, ...body });
      events.push({ type: 'collection.created', id, data: body, cause: describeRequest(sent), unique: true });
    };

    const leaveFeedback = (i: number) => async (): Promise<void> => {
      const article = seededArticles[i % seededArticles.length]!;
      const reader = seededUsers[Math.floor(i / seededArticles.length) % seededUsers.length]!;
      // Half from known readers (matched to their user), a quarter anonymous, a quarter from unknown addresses.
      const variant = i % 4;
      const email = variant < 2 ? reader.email : variant === 2 ? null : `stranger-${RUN}-${i}@example.com`;
      const type = i % 3 === 0 ? 'negative' : 'positive';
      const text = `Feedback ${RUN} ${i} on ${article.id}`;
      const body = { type, feedback: text, ...(email ? { email } : {}) };
      const sent: Sent = { method: 'POST', path: `/v1/public/articles/${article.id}/feedback`, key: 'none', body };
      counts.real++;
      const answer = await call(failures, sent, 201);
      if (!answer) return;
      const expected = {
        articleId: article.id,
        articleTitle: article.title,
        type,
        feedback: text,
        email,
        resolved: false,
        user: variant < 2 ? { id: reader.id, name: reader.name, email: reader.email } : null,
      };
      // The public answer is a receipt; the stored entry (matched user included) is checked through its event and,
      // after the restart, through GET /v1/feedback.
      const receipt = answer.json as Record<string, unknown>;
      const shape = Object.keys(receipt ?? {}).join(',') === 'id,createdAt' ? [] : [`keys ${Object.keys(receipt ?? {}).join(',')}, expected id,createdAt`];
      if (wrongBody(failures, sent, answer, [...shape, ...differences(answer.json, { id: /^fb_/ })])) return;
      const { id, createdAt } = answer.json as CreatedFeedback;
      feedback.push({ id, createdAt, ...expected });
      events.push({ type: 'feedback.created', id, data: expected, cause: describeRequest(sent), unique: true });
    };

    const listArticles = () => async (): Promise<void> => {
      const sent: Sent = { method: 'GET', path: '/v1/articles?page_size=25', key: 'real' };
      counts.real++;
      const answer = await call(failures, sent, 200);
      if (!answer) return;
      const page = answer.json as { results?: unknown; has_more?: unknown; next_cursor?: unknown } | undefined;
      const problems: string[] = [];
      if (!page || !Array.isArray(page.results)) {
        problems.push('expected { results: [...], has_more, next_cursor }');
      } else {
        if (typeof page.has_more !== 'boolean') problems.push(`has_more: expected a boolean, got ${JSON.stringify(page.has_more)}`);
        if (page.has_more !== (typeof page.next_cursor === 'string')) problems.push(`has_more ${String(page.has_more)} with next_cursor ${JSON.stringify(page.next_cursor)}`);
        if (page.results.length > 25) problems.push(`${page.results.length} results for page_size=25`);
        for (const item of page.results as Json[]) {
          if (typeof item?.id !== 'string' || !item.id.startsWith('art_')) {
            problems.push(`a result that is not an article: ${clip(JSON.stringify(item), 200)}`);
            continue;
          }
          if (item.status !== 'published') problems.push(`${item.id}: status ${JSON.stringify(item.status)} in the default (published) list`);
          const title = knownTitles.get(item.id);
          if (title !== undefined && item.title !== title) problems.push(`${item.id}: title ${JSON.stringify(item.title)}, but it was created as ${JSON.stringify(title)}`);
        }
      }
      wrongBody(failures, sent, answer, problems);
    };

    const madeUp = (i: number) => async (): Promise<void> => {
      const variants: Sent[] = [
        { method: 'GET', path: '/v1/sections', key: 'made-up' },
        { method: 'POST', path: '/v1/users', key: 'made-up', body: { email: `${MADE_UP}-${i}@example.com`, name: `${MADE_UP} ${i}` } },
        { method: 'POST', path: '/v1/articles', key: 'made-up', body: { title: `${MADE_UP} article ${i}`, sectionId: contentSectionId, markdown: MADE_UP } },
        { method: 'PATCH', path: `/v1/sections/${renameTargets[i % renameTargets.length]}`, key: 'made-up', body: { name: `${MADE_UP} section ${i}` } },
        { method: 'POST', path: '/v1/collections', key: 'made-up', body: { title: `${MADE_UP} collection ${i}`, sectionId: contentSectionId } },
        { method: 'GET', path: '/v1/articles?page_size=25', key: 'made-up' },
        { method: 'GET', path: `/v1/users/${seededUsers[i % seededUsers.length]!.id}`, key: 'made-up' },
      ];
      const sent = variants[i % variants.length]!;
      counts.madeUp++;
      const answer = await call(failures, sent, 401);
      if (!answer) return;
      const problems: string[] = [];
      const body = answer.json as Json | undefined;
      const fields = body ? Object.keys(body).sort() : [];
      if (
        JSON.stringify(fields) !== '["code","docUrl","error","requestId"]' ||
        body!.code !== 'unauthorized' ||
        typeof body!.error !== 'string' ||
        body!.requestId !== answer.headers.get('x-request-id') ||
        typeof body!.docUrl !== 'string' ||
        !(body!.docUrl as string).endsWith('/docs/errors#unauthorized')
      ) {
        problems.push(`expected exactly { error: <string>, code: 'unauthorized', requestId: <X-Request-Id>, docUrl: <…/docs/errors#unauthorized> }`);
      }
      const challenge = answer.headers.get('www-authenticate') ?? '';
      if (!/^Bearer realm="help-center"/.test(challenge) || !challenge.includes('error="invalid_token"')) {
        problems.push(`WWW-Authenticate: expected Bearer realm="help-center", error="invalid_token", got ${JSON.stringify(challenge)}`);
      }
      wrongBody(failures, sent, answer, problems);
    };

    // Per cycle: 8 requests with the real key (the article job sends two) and 4 with made-up ones, interleaved.
    const jobs: Array<() => Promise<void>> = [];
    let fake = 0;
    for (let c = 0; c < CYCLES; c++) {
      jobs.push(createUser(c), madeUp(fake++), renameSection(c), createAndPublishArticle(c), madeUp(fake++), createCollection(c));
      jobs.push(leaveFeedback(2 * c), madeUp(fake++), leaveFeedback(2 * c + 1), listArticles(), madeUp(fake++));
    }
    const startedAt = Date.now();
    const guarded = jobs.map((job, index) => async () => {
      if (Date.now() - startedAt > BURST_DEADLINE_MS) {
        failures.push({ kind: 'not sent (burst deadline)', detail: `job ${index} of ${jobs.length}: the burst was still running after ${BURST_DEADLINE_MS} ms` });
        return;
      }
      try {
        await job();
      } catch (error) {
        failures.push({ kind: 'wrong body', detail: `job ${index} could not check its answer: ${(error as Error).stack ?? String(error)}` });
      }
    });
    await pool(guarded, WIDTH);
    burstRan = true;
    const took = `${counts.real} requests with the real key (or none), ${counts.madeUp} with made-up keys, in ${Date.now() - startedAt} ms`;
    assertNoFailures(failures, `Burst (${took})`, serverLog());
    expect(counts).toEqual({ real: CYCLES * 8, madeUp: CYCLES * 4 });
  });

  it('delivers every event of the burst, signed, and leaves no delivery pending', async () => {
    expect(burstRan).toBe(true);
    expect(events.length).toBeGreaterThan(0);
    const hooks = (): ReceivedRequest[] => receiver.requestsTo(HOOK_PATH);
    const verifier = new Webhook(webhook.secret);

    const problems = (): Failure[] => {
      const byKey = new Map<string, Json[]>();
      for (const request of hooks()) {
        try {
          const payload = request.json<{ type: string; data: Json }>();
          const id = typeof payload.data?.id === 'string' ? payload.data.id : '';
          byKey.set(`${payload.type} ${id}`, [...(byKey.get(`${payload.type} ${id}`) ?? []), payload.data]);
        } catch {
          // Reported below as an unsigned or unreadable delivery.
        }
      }
      const found: Failure[] = [];
      for (const expectation of events) {
        const candidates = byKey.get(`${expectation.type} ${expectation.id}`) ?? [];
        if (candidates.some((data) => differences(data, expectation.data).length === 0)) continue;
        const want = `${expectation.type} for ${expectation.id} with ${JSON.stringify(expectation.data)} (after ${expectation.cause})`;
        if (candidates.length === 0) found.push({ kind: 'event missing', detail: `no ${want}` });
        else if (expectation.unique) found.push({ kind: 'event with other data', detail: `${want} arrived with other data: ${differences(candidates[0], expectation.data).join('; ')}` });
        else found.push({ kind: 'event missing', detail: `no ${want}; ${candidates.length} other ${expectation.type} for it arrived` });
      }
      return found;
    };
    let missing: Failure[] = [];
    try {
      await eventually(async () => (missing = problems()).length === 0, `every event of the burst at ${receiver.url(HOOK_PATH)}`, EVENT_TIMEOUT_MS);
    } catch (error) {
      assertNoFailures(missing, `${(error as Error).message}; ${hooks().length} webhook request(s) received for ${events.length} expected event(s)`);
    }

    const unsigned: Failure[] = [];
    for (const request of hooks()) {
      try {
        const verified = verifier.verify(request.body, request.headers as Record<string, string>) as { type?: string };
        if (verified.type !== request.json<{ type: string }>().type) throw new Error(`verified payload type ${verified.type} differs from the body's`);
      } catch (error) {
        unsigned.push({ kind: 'bad signature', detail: `webhook-id ${request.header('webhook-id') ?? '-'}: ${(error as Error).message}; headers ${JSON.stringify(request.headers)}; body ${clip(request.body, 300)}` });
      }
    }
    assertNoFailures(unsigned, 'Webhook requests whose Standard Webhooks signature does not verify with the endpoint secret');

    // No delivery left pending: the relay has recorded an outcome for each, and every outcome is success.
    let deliveries: Delivery[] = [];
    try {
      await eventually(
        async () => {
          deliveries = await everything<Delivery>(`/v1/webhooks/${webhook.id}/deliveries`);
          return deliveries.every((delivery) => delivery.status !== 'pending');
        },
        'no pending delivery',
        EVENT_TIMEOUT_MS,
      );
    } catch (error) {
      const pending = deliveries.filter((delivery) => delivery.status === 'pending');
      throw new Error(`${(error as Error).message}: ${pending.length} of ${deliveries.length} still pending, e.g.\n  ${pending.slice(0, 10).map((d) => JSON.stringify(d)).join('\n  ')}`, {
        cause: error,
      });
    }
    const received = new Set(hooks().map((request) => request.header('webhook-id')));
    const listed = new Set(deliveries.map((delivery) => delivery.id));
    const deliveryFailures: Failure[] = [
      ...deliveries
        .filter((delivery) => delivery.status !== 'success')
        .map((delivery): Failure => ({ kind: 'delivery not successful', detail: `delivery not success: ${JSON.stringify(delivery)}` })),
      ...deliveries
        .filter((delivery) => delivery.status === 'success' && !received.has(delivery.id))
        .map((delivery): Failure => ({ kind: 'delivery not successful', detail: `delivery ${delivery.id} (${delivery.eventType}) is success, but the receiver never got webhook-id ${delivery.id}` })),
      ...[...received]
        .filter((id) => !listed.has(id!))
        .map((id): Failure => ({ kind: 'delivery not successful', detail: `the receiver got webhook-id ${id}, which is not among the endpoint's ${deliveries.length} deliveries` })),
    ];
    assertNoFailures(deliveryFailures, `Deliveries of endpoint ${webhook.id} (${deliveries.length} listed, ${received.size} distinct webhook-ids received)`);
    expect(deliveries.length).toBeGreaterThanOrEqual(events.length);
  });

  it('an endpoint a webhooks:manage + content:read key set up received every collection and section event of the burst, and nothing else', async () => {
    expect(burstRan).toBe(true);
    const readable = events.filter((event) => event.type.startsWith('collection.') || event.type.startsWith('section.'));
    expect(readable.length).toBeGreaterThan(0);
    const arrived = () => new Set(receiver.requestsTo(NARROW_PATH).map((r) => { const p = r.json<{ type: string; data: { id?: string } }>(); return `${p.type} ${p.data.id ?? ''}`; }));
    await eventually(async () => readable.every((event) => arrived().has(`${event.type} ${event.id}`)), `every collection and section event at ${receiver.url(NARROW_PATH)}`, EVENT_TIMEOUT_MS);
    const types = new Set(receiver.requestsTo(NARROW_PATH).map((r) => r.json<{ type: string }>().type));
    expect([...types].filter((type) => !type.startsWith('collection.') && !type.startsWith('section.'))).toEqual([]);
  });

  it('the made-up keys left no trace (no user, article, collection, section name or event); all the real key created is listed', async () => {
    expect(burstRan).toBe(true);
    const lists = {
      users: await everything<Json>('/v1/users'),
      articles: await everything<Json>('/v1/articles?status=all'),
      collections: await everything<Json>('/v1/collections'),
      sections: await everything<Json>('/v1/sections'),
    };
    const traces: Failure[] = [];
    for (const [list, items] of Object.entries(lists)) {
      for (const item of items) {
        if (JSON.stringify(item).includes(MADE_UP)) traces.push({ kind: 'made-up key accepted', detail: `${list}: ${clip(JSON.stringify(item), 300)}` });
      }
    }
    for (const request of receiver.requestsTo(HOOK_PATH)) {
      if (request.body.includes(MADE_UP)) traces.push({ kind: 'made-up key accepted', detail: `event ${clip(request.body, 300)}` });
    }
    // The lists are not vacuous: what the burst created with the real key is in them.
    const created = { users, articles, collections };
    for (const [list, items] of Object.entries(created)) {
      const listed = new Set(lists[list as keyof typeof created].map((item) => item.id));
      for (const item of items) {
        if (!listed.has(item.id)) traces.push({ kind: 'created, then not listed', detail: `${list}: ${item.id} answered 201 in the burst but is not among the ${listed.size} listed: ${JSON.stringify(item)}` });
      }
    }
    assertNoFailures(traces, `Lists after the burst (${lists.users.length} users, ${lists.articles.length} articles, ${lists.collections.length} collections, ${lists.sections.length} sections)`);
    expect(users.length + articles.length + collections.length).toBeGreaterThan(0);
  });

  it('a key the CLI creates beside the running service works at once', async () => {
    const run = await runNode(CLI, ['api-keys', 'create', '--name', 'load', '--scopes', 'content:read', '--json'], { DATA_DIR: dataDir });
    if (run.code !== 0) throw new Error(`api-keys create exited ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`);
    const created = JSON.parse(run.stdout) as { id: string; key: string };
    expect(created.key).toMatch(/^hck_[0-9A-Za-z]{40,}$/);
    const res = await server.fetch('/v1/sections', created.key);
    if (res.status !== 200) throw new Error(`GET /v1/sections with the CLI's key → ${res.status} ${await res.text()}`);
  });

  it('after kill -9 and a new start on the same DATA_DIR, everything written is still there', async () => {
    expect(burstRan).toBe(true);
    for (const [what, list] of Object.entries({ users, articles, collections, renames, feedback })) {
      if (list.length === 0) throw new Error(`The burst created no ${what} to check`);
    }

    // Each section's name before the kill: the rename that committed last (the latest updatedAt) must have won,
    // unless a rename that got no valid answer (already reported by the burst) was applied after it.
    const failures: Failure[] = [];
    const finalNames = new Map<string, { name: string; updatedAt: string }>();
    for (const sectionId of renameTargets) {
      const section = await must<{ name: string; updatedAt: string }>({ method: 'GET', path: `/v1/sections/${sectionId}`, key: 'real' }, 200);
      const mine = renames.filter((rename) => rename.sectionId === sectionId);
      const latest = mine.reduce((max, rename) => (rename.updatedAt > max ? rename.updatedAt : max), '');
      const winners = mine.filter((rename) => rename.updatedAt === latest);
      const unanswered = unansweredRenames.some((rename) => rename.sectionId === sectionId && rename.name === section.name);
      if (mine.length && !unanswered && !winners.some((rename) => rename.name === section.name && rename.updatedAt === section.updatedAt)) {
        failures.push({
          kind: 'wrong body',
          detail: `before the kill, GET /v1/sections/${sectionId} says ${JSON.stringify(section.name)} (updatedAt ${section.updatedAt}); the last rename answered was ${JSON.stringify(winners)}`,
        });
      }
      finalNames.set(sectionId, { name: section.name, updatedAt: section.updatedAt });
    }

    const killed = server;
    killed.child.kill('SIGKILL');
    expect(await killed.exited).toEqual({ code: null, signal: 'SIGKILL' });

    server = ServerProcess.spawn(dataDir, LOAD_ENV);
    started.push(server);
    await server.listening();
    if (server.stdout.match(KEY) || server.stdout.includes('First start')) {
      throw new Error(`The restart printed a new key, as if the data were gone:\n${server.stdout}`);
    }

    const read = async (path: string, expected: Json): Promise<void> => {
      const sent: Sent = { method: 'GET', path, key: 'real' };
      const answer = await call(failures, sent, 200);
      if (answer) wrongBody(failures, sent, answer, differences(answer.json, expected));
    };
    const checks: Array<() => Promise<void>> = [
      ...users.map((user) => () => read(`/v1/users/${user.id}`, { ...user })),
      ...articles.map((article) => () =>
        read(`/v1/articles/${article.id}?format=markdown`, {
          id: article.id,
          title: article.title,
          sectionId: article.sectionId,
          // An article whose publish got no valid answer (reported by the burst) may be either.
          status: article.publishedAt ? 'published' : /^(draft|published)$/,
          ...(article.publishedAt ? { publishedAt: article.publishedAt } : {}),
          contentMarkdown: new RegExp(article.marker),
        }),
      ),
      ...collections.map((collection) => () => read(`/v1/collections/${collection.id}`, { ...collection })),
      ...[...finalNames].map(([sectionId, state]) => () => read(`/v1/sections/${sectionId}`, { id: sectionId, ...state })),
      ...seededArticles.map((article) => async () => {
        const path = `/v1/feedback?article_id=${article.id}`;
        let stored: Json[];
        try {
          stored = await everything<Json>(path);
        } catch (error) {
          failures.push({ kind: 'unexpected status', detail: (error as Error).message });
          return;
        }
        const byId = new Map(stored.map((entry) => [entry.id as string, entry]));
        for (const entry of feedback.filter((f) => f.articleId === article.id)) {
          const found = byId.get(entry.id);
          if (!found) {
            failures.push({ kind: 'created, then not listed', detail: `GET ${path} (all pages): feedback ${entry.id} is not among the ${stored.length} listed: ${JSON.stringify(entry)}` });
            continue;
          }
          const problems = differences(found, { ...entry });
          if (problems.length) failures.push({ kind: 'wrong body', detail: `GET ${path} (all pages): ${problems.join('; ')}` });
        }
      }),
    ];
    await pool(checks, WIDTH);
    assertNoFailures(
      failures,
      `After kill -9 and a restart (${users.length} users, ${articles.length} articles, ${collections.length} collections, ${finalNames.size} sections, ${feedback.length} feedback entries checked)`,
      serverLog(),
    );
  });
});
