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
 * everything written must survive kill -9 and a restart. The public help center pages, which the process keeps in
 * memory under the content version, are read 16 at a time too: every page must be its own and current, never
 * show a draft or trashed article, and show a publish and an unpublish made meanwhile from the next request on.
 * `npm test` builds dist/ first.
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

// The public help center pages (server-rendered by the same process, kept in memory under the content version).
const SITE_NAME = `Load Help ${RUN}`;
/** In the body of every seeded published article, of the draft and of the trashed one: search lists the published only. */
const SHARED_WORD = 'zephyrine';
/** Only in the draft's body: a search for it lists nothing. */
const DRAFT_WORD = 'plinthorix';
/** Page requests completed before the publish, between the publish and the unpublish, and after the unpublish. */
const PAGE_PHASE_REQUESTS = 400;
/** Past this the page readers stop and what was left is reported (a stuck process must not hang the suite). */
const PAGE_LOAD_DEADLINE_MS = 45_000;
const NOT_FOUND_HEADING = 'We couldn’t find that page';

interface PageArticleSpec {
  readonly title: string;
  /** A sentence of its body that no other article has. */
  readonly phrase: string;
  readonly collection: 'harbor' | 'sky' | null;
}

/** Published at seeding and never changed; the first one has a published French translation. */
const LIVE_PAGES: readonly PageArticleSpec[] = [
  { title: 'Calibrate the amber lighthouse', phrase: 'The amber lighthouse turns twice a minute', collection: 'harbor' },
  { title: 'Feed the copper tortoise', phrase: 'The copper tortoise eats lettuce at dusk', collection: 'harbor' },
  { title: 'Repaint the violet glacier', phrase: 'The violet glacier needs three coats', collection: 'sky' },
  { title: 'Tune the granite harp', phrase: 'The granite harp has forty strings', collection: null },
  { title: 'Polish the saffron telescope', phrase: 'The saffron telescope fogs up in spring', collection: null },
];
const FRENCH_PAGE = { title: 'Étalonner le phare ambré', markdown: 'Le phare ambré tourne deux fois par minute.' };
const DRAFT_PAGE: PageArticleSpec = { title: 'Unveil the obsidian kite', phrase: 'The obsidian kite is not announced yet', collection: 'harbor' };
const TRASHED_PAGE: PageArticleSpec = { title: 'Bury the scarlet anchor', phrase: 'The scarlet anchor plan was dropped', collection: 'harbor' };
/** A draft at seeding, published while the pages are under load. */
const TO_PUBLISH_PAGE: PageArticleSpec = { title: 'Launch the cobalt zeppelin', phrase: 'The cobalt zeppelin leaves at noon', collection: 'sky' };
/** Published at seeding, unpublished while the pages are under load. */
const TO_UNPUBLISH_PAGE: PageArticleSpec = { title: 'Retire the walnut windmill', phrase: 'The walnut windmill stops in winter', collection: 'harbor' };
const PAGE_COLLECTIONS = { harbor: 'Harbor instruments', sky: 'Sky machines' } as const;
/**
 * Published articles rewritten (title and body, published at once) one after another by one writer each while the
 * pages are under load: the content version keeps rising from several sides, so kept pages keep going out of date
 * and are rendered again while being read, and while other changes commit.
 */
const ROTATING_NAMES = ['north', 'east', 'west'] as const;
const ROTATING = {
  title: (name: string, edition: number) => `Rotating ${name} notice edition ${edition}`,
  markdown: (name: string, edition: number) => `Edition ${edition} of the ${name} notice.`,
  heading: /^Rotating (\w+) notice edition (\d+)$/,
  body: (name: string) => new RegExp(`Edition (\\d+) of the ${name} notice\\.`, 'g'),
};

// ---------------------------------------------------------------------------------------------------------------
// Requests and what went wrong with them

type KeyKind = 'real' | 'made-up' | 'none';

interface Sent {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
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
  | 'delivery not successful'
  | 'another article\'s page'
  | 'stale page'
  | 'hidden content shown';

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
// Reading a public page

interface PageView {
  /** The text of every <h1>. */
  readonly headings: string[];
  readonly title: string | null;
  /** The titles of every article linked from the page's article lists (collection contents, recent articles, results). */
  readonly listed: string[];
}

function readPage(html: string): PageView {
  const headings = [...html.matchAll(/<h1\b[^>]*>([\s\S]*?)<\/h1>/g)].map((m) => m[1]!);
  const title = /<title>([\s\S]*?)<\/title>/.exec(html)?.[1] ?? null;
  const listed = [...html.matchAll(/<ul class="article-list">([\s\S]*?)<\/ul>/g)].flatMap((list) =>
    [...list[1]!.matchAll(/<a href="[^"]*\/articles\/[^"]+"[^>]*>([^<]*)<\/a>/g)].map((m) => m[1]!),
  );
  return { headings, title, listed };
}

/** Where a page request stands to a change: wholly before it was sent, wholly after it was acknowledged, or across it. */
type ChangeState = 'before' | 'after' | 'either';

interface ChangeTimes {
  sentAt: number;
  ackAt: number;
}

function stateOf(change: ChangeTimes, start: number, end: number): ChangeState {
  if (end < change.sentAt) return 'before';
  if (start > change.ackAt) return 'after';
  return 'either';
}

// ---------------------------------------------------------------------------------------------------------------
// What the burst wrote (only from answers that matched their request)

interface CreatedUser { id: string; email: string; name: string; createdAt: string; updatedAt: string }
interface CreatedArticle { id: string; title: string; sectionId: string; marker: string; publishedAt: string | null }
interface CreatedCollection { id: string; title: string; subtitle: string; sectionId: string; createdAt: string }
interface Rename { sectionId: string; name: string; updatedAt: string }
interface CreatedFeedback { id: string; articleId: string; articleTitle: string; type: string; feedback: string; email: string | null; resolved: boolean; createdAt: string; user: { id: string; name: string; email: string } | null }
interface SeededArticle { id: string; title: string }
interface SeededPage extends PageArticleSpec { id: string; slug: string }

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

  const livePages: SeededPage[] = [];
  /** Each rotating article, with the last edition whose publish was acknowledged and the last one sent. */
  const rotating: Array<{ name: string; page: SeededPage; acked: number; sent: number }> = [];
  let frenchSlug = '';
  let draftPage: SeededPage;
  let trashedPage: SeededPage;
  let toPublishPage: SeededPage;
  let toUnpublishPage: SeededPage;
  const pageCollections = new Map<'harbor' | 'sky', { shortId: string; title: string }>();
  /** Whether the publish and the unpublish of the page load were acknowledged (what the restart must still show). */
  const pageChanges = { published: false, unpublished: false };

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

  it('seeds sections, published articles, users, the public pages\' content (en + fr, a draft, a trashed article) and a webhook endpoint for every event', async () => {
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
    // The public pages' content: English and French, articles in two collections and outside any, one published
    // French translation, a draft, a trashed article, one draft to publish and one article to unpublish under load.
    const helpdesk = await must<{ name: string; languages: string[] }>({ method: 'PATCH', path: '/v1/helpdesk', key: 'real', body: { name: SITE_NAME, languages: ['en', 'fr'] } }, 200);
    expect({ name: helpdesk.name, languages: helpdesk.languages }).toEqual({ name: SITE_NAME, languages: ['en', 'fr'] });
    const collectionIds = new Map<'harbor' | 'sky', string>();
    for (const [name, title] of Object.entries(PAGE_COLLECTIONS) as Array<['harbor' | 'sky', string]>) {
      const collection = await must<{ id: string; shortId: string }>({ method: 'POST', path: '/v1/collections', key: 'real', body: { title, sectionId: contentSectionId } }, 201);
      pageCollections.set(name, { shortId: collection.shortId, title });
      collectionIds.set(name, collection.id);
    }
    const seedPage = async (spec: PageArticleSpec, words: string, publish: boolean): Promise<SeededPage> => {
      const body = {
        title: spec.title,
        sectionId: contentSectionId,
        ...(spec.collection ? { collectionId: collectionIds.get(spec.collection) } : {}),
        markdown: `${spec.phrase}.\n\n## Notes\n\n${words}`,
        publish,
      };
      const created = await must<{ id: string; slug: string; title: string; status: string }>({ method: 'POST', path: '/v1/articles', key: 'real', body }, 201);
      expect({ title: created.title, status: created.status }).toEqual({ title: spec.title, status: publish ? 'published' : 'draft' });
      return { ...spec, id: created.id, slug: created.slug };
    };
    for (const spec of LIVE_PAGES) {
      const page = await seedPage(spec, `Every ${SHARED_WORD} step is written down here.`, true);
      livePages.push(page);
      knownTitles.set(page.id, page.title);
    }
    const translated = livePages[0]!;
    await must({ method: 'PUT', path: `/v1/articles/${translated.id}/translations/fr`, key: 'real', body: FRENCH_PAGE }, 201);
    await must({ method: 'POST', path: `/v1/articles/${translated.id}/translations/fr/publish`, key: 'real' }, 200);
    frenchSlug = translated.slug;
    draftPage = await seedPage(DRAFT_PAGE, `A ${SHARED_WORD} preview, and the ${DRAFT_WORD} that only this draft mentions.`, false);
    trashedPage = await seedPage(TRASHED_PAGE, `Every ${SHARED_WORD} step was written down here.`, true);
    await must({ method: 'DELETE', path: `/v1/articles/${trashedPage.id}`, key: 'real' }, 200);
    toPublishPage = await seedPage(TO_PUBLISH_PAGE, 'Boarding starts an hour before.', false);
    toUnpublishPage = await seedPage(TO_UNPUBLISH_PAGE, 'Its sails come down in November.', true);
    knownTitles.set(toUnpublishPage.id, toUnpublishPage.title);
    for (const name of ROTATING_NAMES) {
      const body = { title: ROTATING.title(name, 0), sectionId: contentSectionId, markdown: ROTATING.markdown(name, 0), publish: true };
      const created = await must<{ id: string; slug: string }>({ method: 'POST', path: '/v1/articles', key: 'real', body }, 201);
      rotating.push({ name, page: { title: body.title, phrase: body.markdown, collection: null, id: created.id, slug: created.slug }, acked: 0, sent: 0 });
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

  it(`the public pages under ${WIDTH} concurrent readers while articles are rewritten: each page its own and current, the draft and the trashed one 404, search lists the published only, a publish and an unpublish made meanwhile show on the next request`, async () => {
    if (!seeded || livePages.length === 0) throw new Error('Seeding failed (see the first test): no page load without its content');
    const failures: Failure[] = [];
    const publish: ChangeTimes = { sentAt: Infinity, ackAt: Infinity };
    const unpublish: ChangeTimes = { sentAt: Infinity, ackAt: Infinity };
    const seededTitles = [...livePages, draftPage, trashedPage, toPublishPage, toUnpublishPage].map((page) => page.title).concat(FRENCH_PAGE.title);

    interface States {
      readonly publish: ChangeState;
      readonly unpublish: ChangeState;
      /** Per rotating article, the editions this request may show: acknowledged before it was sent … sent before its answer came. */
      readonly editions: ReadonlyArray<{ readonly from: number; readonly to: number }>;
    }
    interface PageSpec {
      readonly path: string;
      readonly check: (answer: Answer, view: PageView, states: States) => Failure[];
    }

    /** Text that must be in no page: the draft's and the trashed article's always, the others' by the changes. */
    const hiddenTexts = (states: States): Array<{ text: string; kind: FailureKind; whose: string }> => [
      ...[draftPage.title, draftPage.phrase].map((text) => ({ text, kind: 'hidden content shown' as const, whose: 'the draft' })),
      ...[trashedPage.title, trashedPage.phrase].map((text) => ({ text, kind: 'hidden content shown' as const, whose: 'the trashed article' })),
      ...(states.publish === 'before'
        ? [toPublishPage.title, toPublishPage.phrase].map((text) => ({ text, kind: 'hidden content shown' as const, whose: 'the article not yet published' }))
        : []),
      ...(states.unpublish === 'after'
        ? [toUnpublishPage.title, toUnpublishPage.phrase].map((text) => ({ text, kind: 'stale page' as const, whose: 'the article unpublished before this request was sent' }))
        : []),
    ];

    const status = (answer: Answer, expected: number): Failure[] => (answer.status === expected ? [] : [{ kind: 'unexpected status', detail: `expected ${expected}` }]);

    /** Exactly this article's page: one <h1> with its title and <title> "{title} | {site}"; another seeded title is a mix-up. */
    const articlePage = (view: PageView, title: string): Failure[] => {
      const others = seededTitles.filter((other) => other !== title && (view.headings.includes(other) || view.title === `${other} | ${SITE_NAME}`));
      others.push(...view.headings.filter((heading) => ROTATING.heading.test(heading)));
      if (others.length > 0) return [{ kind: "another article's page", detail: `expected the page of ${JSON.stringify(title)}, got that of ${JSON.stringify(others)}` }];
      if (view.headings.length !== 1 || view.headings[0] !== title || view.title !== `${title} | ${SITE_NAME}`) {
        return [{ kind: 'wrong body', detail: `expected exactly <h1>${title}</h1> and <title>${title} | ${SITE_NAME}</title>` }];
      }
      return [];
    };

    /** A 200 where the 404 page was due: the hidden article's own page, or another article's (a mix-up). */
    const shownInstead = (view: PageView, page: SeededPage, why: string, kind: FailureKind): Failure[] => {
      const others = seededTitles.filter((other) => other !== page.title && view.headings.includes(other));
      return others.length > 0
        ? [{ kind: "another article's page", detail: `expected 404 (${why}), got the page of ${JSON.stringify(others)}` }]
        : [{ kind, detail: `expected 404 (${why})` }];
    };

    const notFoundPage = (view: PageView): Failure[] =>
      view.headings.length === 1 && view.headings[0] === NOT_FOUND_HEADING ? [] : [{ kind: 'wrong body', detail: `expected the 404 page (<h1>${NOT_FOUND_HEADING}</h1>)` }];

    /** An article page a change turns on or off: 200 with its page while shown, else the 404 page; across the change either. */
    const changingArticle = (page: SeededPage, change: 'publish' | 'unpublish', shownBefore: boolean): PageSpec => ({
      path: `/articles/${page.slug}`,
      check: (answer, view, states) => {
        const state = states[change];
        const shown = state === 'either' ? answer.status === 200 : state === 'before' ? shownBefore : !shownBefore;
        const expected = shown ? 200 : 404;
        if (answer.status !== expected) {
          // Before the change the old answer is due; after its acknowledgement, the new one.
          const why = `${change} ${state === 'after' ? 'acknowledged before this request was sent' : 'not sent yet when this answer arrived'}`;
          if (answer.status === 200) return shownInstead(view, page, why, state === 'after' ? 'stale page' : 'hidden content shown');
          return [{ kind: state === 'after' ? 'stale page' : 'unexpected status', detail: `expected ${expected} (${why})` }];
        }
        return shown ? articlePage(view, page.title) : notFoundPage(view);
      },
    });

    /** The titles an article list must hold: `always`, and each changing one by its state (true listed, false not, null either). */
    const listing = (view: PageView, always: readonly string[], changing: ReadonlyArray<{ title: string; listed: boolean | null }>): Failure[] => {
      const problems: Failure[] = [];
      const listed = new Set(view.listed);
      const missing = always.filter((title) => !listed.has(title));
      if (missing.length > 0) problems.push({ kind: 'wrong body', detail: `not listed: ${JSON.stringify(missing)}` });
      for (const { title } of changing.filter((entry) => entry.listed === true && !listed.has(entry.title))) {
        problems.push({ kind: 'stale page', detail: `${JSON.stringify(title)} not listed, though its publish was acknowledged before this request was sent` });
      }
      const allowed = new Set([...always, ...changing.filter((entry) => entry.listed !== false).map((entry) => entry.title)]);
      // Titles that must not be listed at all are reported by the hidden text check.
      const hidden = new Set([draftPage.title, trashedPage.title, ...changing.filter((entry) => entry.listed === false).map((entry) => entry.title)]);
      const extra = view.listed.filter((title) => !allowed.has(title) && !hidden.has(title));
      if (extra.length > 0) problems.push({ kind: 'wrong body', detail: `listed, though not expected: ${JSON.stringify(extra)}` });
      return problems;
    };
    const listedBy = (state: ChangeState, whenAfter: boolean): boolean | null => (state === 'either' ? null : state === 'after' ? whenAfter : !whenAfter);

    const inCollection = (name: 'harbor' | 'sky') => livePages.filter((page) => page.collection === name).map((page) => page.title);
    const collectionPage = (name: 'harbor' | 'sky', changing: (states: States) => Array<{ title: string; listed: boolean | null }>): PageSpec => {
      const collection = pageCollections.get(name)!;
      return {
        path: `/collections/${collection.shortId}`,
        check: (answer, view, states) => {
          const problems = status(answer, 200);
          if (problems.length > 0) return problems;
          if (view.headings.length !== 1 || view.headings[0] !== collection.title || view.title !== `${collection.title} | ${SITE_NAME}`) {
            problems.push({ kind: 'wrong body', detail: `expected exactly <h1>${collection.title}</h1> and <title>${collection.title} | ${SITE_NAME}</title>` });
          }
          return [...problems, ...listing(view, inCollection(name), changing(states))];
        },
      };
    };

    const harborSpec = collectionPage('harbor', (states) => [{ title: toUnpublishPage.title, listed: listedBy(states.unpublish, false) }]);
    const skySpec = collectionPage('sky', (states) => [{ title: toPublishPage.title, listed: listedBy(states.publish, true) }]);
    /** A rotating article: one edition throughout (heading, <title>, body), never older than acknowledged, never unsent. */
    const rotatingSpec = ({ name, page }: (typeof rotating)[number], index: number): PageSpec => ({
      path: `/articles/${page.slug}`,
      check: (answer, view, states) => {
        const problems = status(answer, 200);
        if (problems.length > 0) return problems;
        const heading = view.headings.length === 1 ? ROTATING.heading.exec(view.headings[0]!) : null;
        const others = [...seededTitles.filter((other) => view.headings.includes(other)), ...(heading && heading[1] !== name ? [heading[0]] : [])];
        if (others.length > 0) return [{ kind: "another article's page", detail: `expected the ${name} rotating article, got the page of ${JSON.stringify(others)}` }];
        const edition = heading?.[2];
        const bodies = [...new Set([...answer.text.matchAll(ROTATING.body(name))].map((m) => m[1]!))];
        if (edition === undefined || view.title !== `${ROTATING.title(name, Number(edition))} | ${SITE_NAME}` || bodies.length !== 1 || bodies[0] !== edition) {
          return [{ kind: 'wrong body', detail: `expected one edition throughout: <h1>, <title> and the body's "Edition n of the ${name} notice." (the body has ${JSON.stringify(bodies)})` }];
        }
        const { from, to } = states.editions[index]!;
        if (Number(edition) < from) problems.push({ kind: 'stale page', detail: `edition ${edition}, though edition ${from} was acknowledged before this request was sent` });
        if (Number(edition) > to) problems.push({ kind: 'wrong body', detail: `edition ${edition}, though only editions up to ${to} had been sent when the answer came` });
        return problems;
      },
    });
    const toPublishSpec = changingArticle(toPublishPage, 'publish', false);
    const toUnpublishSpec = changingArticle(toUnpublishPage, 'unpublish', true);
    const specs: PageSpec[] = [
      ...livePages.map((page): PageSpec => ({ path: `/articles/${page.slug}`, check: (answer, view) => [...status(answer, 200), ...(answer.status === 200 ? articlePage(view, page.title) : [])] })),
      {
        path: `/fr/articles/${frenchSlug}`,
        check: (answer, view) => {
          const problems = status(answer, 200);
          if (problems.length > 0) return problems;
          if (!answer.text.startsWith('<!DOCTYPE html><html lang="fr"')) problems.push({ kind: 'wrong body', detail: 'expected <html lang="fr"' });
          return [...problems, ...articlePage(view, FRENCH_PAGE.title)];
        },
      },
      toPublishSpec,
      toUnpublishSpec,
      ...[draftPage, trashedPage].map(
        (page): PageSpec => ({
          path: `/articles/${page.slug}`,
          check: (answer, view) =>
            answer.status === 404
              ? notFoundPage(view)
              : answer.status === 200
                ? shownInstead(view, page, page === draftPage ? 'a draft' : 'a trashed article', 'hidden content shown')
                : status(answer, 404),
        }),
      ),
      {
        path: `/search?q=${DRAFT_WORD}`,
        check: (answer, view) => {
          const problems = status(answer, 200);
          if (problems.length > 0) return problems;
          if (view.listed.length > 0) problems.push({ kind: view.listed.includes(draftPage.title) ? 'hidden content shown' : 'wrong body', detail: `a search for a word only the draft has listed ${JSON.stringify(view.listed)}` });
          if (!answer.text.includes(`No articles match “${DRAFT_WORD}”.`)) problems.push({ kind: 'wrong body', detail: 'expected the empty state' });
          return problems;
        },
      },
      {
        path: `/search?q=${SHARED_WORD}`,
        check: (answer, view) => [...status(answer, 200), ...(answer.status === 200 ? listing(view, livePages.map((page) => page.title), []) : [])],
      },
      {
        path: '/',
        check: (answer, view, states) => {
          const problems = status(answer, 200);
          if (problems.length > 0) return problems;
          if (view.title !== SITE_NAME || view.headings.length !== 1 || view.headings[0] !== 'How can we help?') {
            problems.push({ kind: 'wrong body', detail: `expected <title>${SITE_NAME}</title> and <h1>How can we help?</h1>` });
          }
          // The newest published article heads the recent ones: listed once its publish was acknowledged.
          if (states.publish === 'after' && !view.listed.includes(toPublishPage.title)) {
            problems.push({ kind: 'stale page', detail: `${JSON.stringify(toPublishPage.title)} is not among the recent articles, though its publish was acknowledged before this request was sent` });
          }
          return problems;
        },
      },
      harborSpec,
      skySpec,
      ...rotating.map(rotatingSpec),
    ];

    let done = 0;
    let wrongAnswers = 0;
    const tally = new Map<string, { total: number; afterPublish: number; afterUnpublish: number }>(specs.map((spec) => [spec.path, { total: 0, afterPublish: 0, afterUnpublish: 0 }]));

    /** One page request, checked against where it stands to the two changes. */
    const visit = async (spec: PageSpec): Promise<void> => {
      const sent: Sent = { method: 'GET', path: spec.path, key: 'none' };
      const start = performance.now();
      const from = rotating.map((article) => article.acked);
      let answer: Answer | undefined;
      let problems: Failure[] = [];
      try {
        answer = await send(sent);
      } catch (error) {
        problems = [{ kind: 'network error', detail: `${(error as Error).message} (${String((error as Error).cause ?? '')})` }];
      }
      const end = performance.now();
      const states: States = { publish: stateOf(publish, start, end), unpublish: stateOf(unpublish, start, end), editions: rotating.map((article, index) => ({ from: from[index]!, to: article.sent })) };
      let got = 'no answer';
      if (answer) {
        const view = readPage(answer.text);
        got = `${answer.status}; <h1> ${JSON.stringify(view.headings)}; <title> ${JSON.stringify(view.title)}; listed ${JSON.stringify(view.listed)}`;
        try {
          problems = answer.status >= 500 ? [{ kind: 'server error (5xx)', detail: clip(answer.text, 300) }] : spec.check(answer, view, states);
        } catch (error) {
          problems = [{ kind: 'wrong body', detail: `the answer could not be checked: ${(error as Error).stack ?? String(error)}` }];
        }
        for (const hidden of hiddenTexts(states)) {
          if (answer.text.includes(hidden.text)) problems.push({ kind: hidden.kind, detail: `the page shows ${JSON.stringify(hidden.text)} (${hidden.whose})` });
        }
      }
      done++;
      const counts = tally.get(spec.path)!;
      counts.total++;
      if (states.publish === 'after') counts.afterPublish++;
      if (states.unpublish === 'after') counts.afterUnpublish++;
      if (problems.length === 0) return;
      wrongAnswers++;
      for (const problem of problems) {
        failures.push({ kind: problem.kind, detail: `${problem.detail}\n      GET ${spec.path} [publish: ${states.publish}, unpublish: ${states.unpublish}] → ${got}` });
      }
    };

    const startedAt = performance.now();
    let stop = false;
    let next = 0;
    const reader = async (): Promise<void> => {
      while (!stop) {
        if (performance.now() - startedAt > PAGE_LOAD_DEADLINE_MS) {
          failures.push({ kind: 'not sent (burst deadline)', detail: `the page load was still running after ${PAGE_LOAD_DEADLINE_MS} ms (${done} requests answered)` });
          stop = true;
          return;
        }
        await visit(specs[next++ % specs.length]!);
      }
    };
    const after = async (requests: number): Promise<void> => {
      const target = done + requests;
      while (!stop && done < target) await new Promise((resolveWait) => setTimeout(resolveWait, 2));
    };
    /** Rewrites one rotating article (title and body, published at once) again and again until the load ends. */
    const rotate = async (article: (typeof rotating)[number]): Promise<void> => {
      while (!stop) {
        const edition = ++article.sent;
        const title = ROTATING.title(article.name, edition);
        const sent: Sent = { method: 'PATCH', path: `/v1/articles/${article.page.id}`, key: 'real', body: { title, markdown: ROTATING.markdown(article.name, edition), publish: true } };
        const answer = await must<{ title: string; status: string }>(sent, 200);
        if (answer.title !== title || answer.status !== 'published') failures.push({ kind: 'wrong body', detail: `${describeRequest(sent)}: got ${clip(JSON.stringify(answer), 300)}` });
        article.acked = edition;
      }
    };
    /**
     * Through the API while the readers run, with requests for the page and for its collection in flight: the change;
     * once acknowledged, the next request for the page.
     */
    const change = async (times: ChangeTimes, page: SeededPage, action: 'publish' | 'unpublish', spec: PageSpec, listingSpec: PageSpec): Promise<void> => {
      const inFlight = Array.from({ length: WIDTH / 4 }, (_, i) => visit(i % 2 === 0 ? spec : listingSpec));
      times.sentAt = performance.now();
      const answer = await must<{ id: string; status: string }>({ method: 'POST', path: `/v1/articles/${page.id}/${action}`, key: 'real' }, 200);
      times.ackAt = performance.now();
      const want = action === 'publish' ? 'published' : 'draft';
      if (answer.id !== page.id || answer.status !== want) failures.push({ kind: 'wrong body', detail: `POST /v1/articles/${page.id}/${action}: expected status ${want}, got ${JSON.stringify(answer)}` });
      // The very next request for the page, on top of the readers' own.
      await visit(spec);
      await Promise.all(inFlight);
    };
    const changer = async (): Promise<void> => {
      try {
        await after(PAGE_PHASE_REQUESTS);
        if (stop) return;
        await change(publish, toPublishPage, 'publish', toPublishSpec, skySpec);
        pageChanges.published = true;
        await after(PAGE_PHASE_REQUESTS);
        if (stop) return;
        await change(unpublish, toUnpublishPage, 'unpublish', toUnpublishSpec, harborSpec);
        pageChanges.unpublished = true;
        await after(PAGE_PHASE_REQUESTS);
      } finally {
        stop = true;
      }
    };
    const settle = (work: Promise<void>): Promise<Error | null> =>
      work.then(
        () => null,
        (error: unknown) => {
          stop = true;
          return error as Error;
        },
      );
    const writers = [settle(changer()), ...rotating.map((article) => settle(rotate(article)))];
    await Promise.all(Array.from({ length: WIDTH }, reader));
    const writeError = (await Promise.all(writers)).find((error) => error !== null);
    if (writeError) throw writeError;

    const took = `${done} page requests (${specs.length} pages, ${WIDTH} at a time) in ${Math.round(performance.now() - startedAt)} ms, with the rotating articles rewritten ${rotating.map((article) => article.acked).join(' + ')} times; ${wrongAnswers} wrong answer(s)`;
    assertNoFailures(failures, `Public pages under load (${took})`, serverLog());
    expect(wrongAnswers).toBe(0);
    expect(pageChanges).toEqual({ published: true, unpublished: true });
    expect(rotating.filter((article) => article.acked < 3)).toEqual([]);
    // Not vacuous: every page was asked for often, before and after each change.
    const thin = [...tally].filter(([, counts]) => counts.total < 20 || counts.afterPublish < 4 || counts.afterUnpublish < 4 || counts.total - counts.afterPublish < 4);
    expect(thin.map(([path, counts]) => ({ path, ...counts }))).toEqual([]);
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
    // The public pages: the published articles (the one published under load too, the rotating ones in their last
    // acknowledged edition) still 200 with their own title; the draft, the trashed one and the one unpublished under
    // load still 404.
    if (livePages.length === 0) throw new Error('The seeding created no public page to check');
    const page = async (path: string, title: string | null): Promise<void> => {
      const sent: Sent = { method: 'GET', path, key: 'none' };
      const answer = await call(failures, sent, title === null ? 404 : 200);
      if (!answer) return;
      const view = readPage(answer.text);
      const heading = title ?? NOT_FOUND_HEADING;
      const problems = view.headings.length === 1 && view.headings[0] === heading && (title === null || view.title === `${title} | ${SITE_NAME}`) ? [] : [`expected <h1>${heading}</h1>${title === null ? '' : ` and <title>${title} | ${SITE_NAME}</title>`}, got <h1> ${JSON.stringify(view.headings)}, <title> ${JSON.stringify(view.title)}`];
      wrongBody(failures, sent, answer, problems);
    };
    const shown = [...livePages, ...(pageChanges.published ? [toPublishPage] : [])];
    const gone = [draftPage, trashedPage, ...(pageChanges.unpublished ? [toUnpublishPage] : [])];
    checks.push(
      ...shown.map((article) => () => page(`/articles/${article.slug}`, article.title)),
      () => page(`/fr/articles/${frenchSlug}`, FRENCH_PAGE.title),
      ...rotating.map((article) => () => page(`/articles/${article.page.slug}`, ROTATING.title(article.name, article.acked))),
      ...gone.map((article) => () => page(`/articles/${article.slug}`, null)),
    );
    await pool(checks, WIDTH);
    assertNoFailures(
      failures,
      `After kill -9 and a restart (${users.length} users, ${articles.length} articles, ${collections.length} collections, ${finalNames.size} sections, ${feedback.length} feedback entries, ${shown.length + gone.length + 1 + rotating.length} public pages checked)`,
      serverLog(),
    );
  });
});
