import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import pg from 'pg';
import { processTree, pssMiB, rssMiB, startProcess } from './processes.js';

/**
 * `npm run bench`: measures, in one run and on this machine,
 *  1. GET /v1/collections?page_size=100 on the service (PostgreSQL) against a bare node:http + pg server
 *     answering the same rows, as requests/s, p50/p99 and their ratio (target ≥ 0.5);
 *  2. articles (10 000 published, ~5 KB): POST rate, GET /v1/articles?page_size=100&format=html against the bare
 *     server (ratio >= 0.5), page 1 against page 100 (<= 1.2x), GET by ID p99, search p95 (<= 50 ms);
 *  3. embedded start-up: first start with initdb (target < 5 s), warm start (target < 2 s), idle RSS of the Node
 *     process (target < 200 MB) and of the PostgreSQL processes;
 *  4. images: one article with 50 references to 5 distinct 200 KB images as data URLs: time to write (first
 *     write stores, later ones find the objects), against the same article whose images are already hosted,
 *     and the number of objects stored (must be 5);
 *  5. webhooks (API + one worker process on PostgreSQL and Redis, loopback receiver): one event fanned out to
 *     1000 endpoints until every delivery is `success` (target < 3 s), and deliveries/s sustained over 10 000
 *     deliveries (target >= 1000/s) against a bare undici loop POSTing the same signed payloads (ratio);
 *  6. help center: the public article page GET /articles/{slug} against the JSON read GET /v1/articles/{id} of the
 *     same articles over 10 000 published ones: requests/s ratio (target >= 0.7) and p99 of both.
 */
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const COLLECTIONS = Number(process.env.BENCH_COLLECTIONS ?? 1000);
const API = join(root, 'dist/apps/api/src/main.js');
const CLI = join(root, 'dist/apps/cli/src/main.js');
const BARE = join(here, 'bare-server.js');
const READY = /listening on (http:\/\/\S+)/i;

function databaseUrl(name: string): string {
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function recreateDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return databaseUrl(name);
}

async function call(base: string, key: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function seed(base: string, key: string): Promise<void> {
  await call(base, key, 'PATCH', '/v1/helpdesk', { languages: ['en', 'fr', 'de'] });
  const ids: string[] = [];
  for (let batch = 0; batch < COLLECTIONS; batch += 20) {
    const created = await Promise.all(
      Array.from({ length: Math.min(20, COLLECTIONS - batch) }, (_, i) =>
        call(base, key, 'POST', '/v1/collections', { title: `Collection ${batch + i}`, subtitle: `All about topic ${batch + i}` }),
      ),
    );
    ids.push(...created.map((c) => (c as { id: string }).id));
  }
  // A third of them translated into two languages, so the page carries nested translations too.
  for (const id of ids.filter((_, i) => i % 3 === 0)) {
    await call(base, key, 'PUT', `/v1/collections/${id}/translations/fr`, { title: 'Collection (fr)', subtitle: 'Sujet' });
    await call(base, key, 'PUT', `/v1/collections/${id}/translations/de`, { title: 'Sammlung', subtitle: null });
  }
}

interface Load {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
}

async function load(url: string, headers: Record<string, string>, duration: number): Promise<Load> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, headers });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

function row(name: string, l: Load): string {
  return `  ${name.padEnd(28)} ${l.rps.toFixed(0).padStart(7)} req/s   p50 ${String(l.p50).padStart(4)} ms   p99 ${String(l.p99).padStart(4)} ms   errors ${l.errors}`;
}

/** The service's environment in a benchmark: PostgreSQL, no Redis, and per-key limits out of the way. */
function serviceEnv(databaseUrl: string, dataDir: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-0000',
    RATE_LIMIT_REQUESTS_PER_MINUTE: '1000000000',
    RATE_LIMIT_CREATE_ARTICLES_PER_HOUR: '1000000000',
    REDIS_URL: '',
  };
}

/** A key minted by the built CLI against the service's database: `scopes`, or a legacy full-access key. */
function createKey(env: Record<string, string>, scopes: string | 'legacy'): string {
  const args = scopes === 'legacy' ? ['--legacy'] : ['--scopes', scopes];
  const created = execFileSync(process.execPath, [CLI, 'api-keys', 'create', '--name', 'bench', ...args, '--json'], { env: { ...process.env, ...env } }).toString();
  return (JSON.parse(created) as { key: string }).key;
}

/** The URL a started API printed, on 127.0.0.1 (autocannon and fetch resolve localhost to ::1 first). */
function baseUrlOf(api: { match: RegExpMatchArray }): string {
  return api.match[1]!.replace('//localhost:', '//127.0.0.1:');
}

async function benchCollections(): Promise<{ ratio: number }> {
  const url = await recreateDatabase('hc_bench');
  const dataDir = mkdtempSync(join(tmpdir(), 'hc-bench-'));
  const env = serviceEnv(url, dataDir);
  const api = await startProcess(API, [], env, READY);
  const base = baseUrlOf(api);
  try {
    const key = createKey(env, 'content:read,content:write');
    process.stdout.write(`Seeding ${COLLECTIONS} collections…\n`);
    await seed(base, key);
    const path = '/v1/collections?page_size=100';
    const bare = await startProcess(BARE, [], { DATABASE_URL: url, PORT: '0' }, /listening on (\d+)/);
    const bareUrl = `http://127.0.0.1:${bare.match[1]}${path}`;
    try {
      const ours = (await call(base, key, 'GET', path)) as { results: unknown[] };
      const theirs = (await (await fetch(bareUrl)).json()) as { results: unknown[] };
      if (ours.results.length !== theirs.results.length) throw new Error('The baseline returns a different page');
      const headers = { authorization: `Bearer ${key}` };
      await load(`${base}${path}`, headers, 2);
      await load(bareUrl, {}, 2);
      const service = await load(`${base}${path}`, headers, DURATION);
      const baseline = await load(bareUrl, {}, DURATION);
      const ratio = service.rps / baseline.rps;
      process.stdout.write(`\nGET ${path}  (${COLLECTIONS} collections, ${CONNECTIONS} connections, ${DURATION} s each)\n`);
      process.stdout.write(`${row('service (NestJS, PostgreSQL)', service)}\n${row('bare node:http + pg', baseline)}\n`);
      process.stdout.write(`  ratio service/bare: ${ratio.toFixed(2)}  (target >= 0.5: ${ratio >= 0.5 ? 'met' : 'MISSED'})\n`);
      return { ratio };
    } finally {
      await bare.stop();
    }
  } finally {
    await api.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const WORDS = (
  'account password reset billing invoice refund subscription plan upgrade downgrade team member invite role ' +
  'permission export import report dashboard integration webhook token security login email notification ' +
  'mobile desktop browser settings profile language timezone calendar schedule payment card receipt tax'
).split(' ');

const SYLLABLES = 'ka lo mi ne ru sa te vo bi da fe gu ho ji ku la mo ni pe qui ra so tu vi wa xe yo zu'.split(' ');
/** A general vocabulary of 3,000 made-up words, used with a skewed (Zipf-like) frequency as real text is. */
const VOCABULARY = Array.from({ length: 3000 }, (_, i) => {
  let word = '';
  for (let n = i + 7; word.length < 6 || n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  return word;
});

/**
 * A ~5 KB Markdown article: headings, paragraphs, a list, a callout. Like a real help article it is about a few
 * topics (three of WORDS, chosen by the seed) in otherwise general text, so a search matches some articles, not all.
 */
function articleMarkdown(seed: number): string {
  let state = seed + 1;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const topics = [0, 1, 2].map((i) => WORDS[(seed * 7 + i * 13) % WORDS.length]!);
  const word = () => (next() < 0.12 ? topics[Math.floor(next() * topics.length)]! : VOCABULARY[Math.floor(VOCABULARY.length * next() ** 3)]!);
  const sentence = () => `${Array.from({ length: 12 }, word).join(' ')}.`;
  const parts: string[] = [];
  while (parts.join('\n\n').length < 5000) {
    parts.push(`## ${word()} ${word()}`, Array.from({ length: 4 }, sentence).join(' '), `- ${sentence()}\n- ${sentence()}`);
    parts.push(`:::callout{variant="info"}\n${sentence()}\n:::`);
  }
  return parts.join('\n\n');
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function benchArticles(): Promise<void> {
  const url = await recreateDatabase('hc_bench_articles');
  const dataDir = mkdtempSync(join(tmpdir(), 'hc-bench-articles-'));
  const count = Number(process.env.BENCH_ARTICLES ?? 10_000);
  const env = serviceEnv(url, dataDir);
  const api = await startProcess(API, [], env, READY);
  const base = baseUrlOf(api);
  try {
    const key = createKey(env, 'legacy');
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const sections = (await call(base, key, 'GET', '/v1/sections')) as { results: Array<{ id: string }> };
    const sectionId = sections.results[0]!.id;
    const bodies = Array.from({ length: 500 }, (_, i) => articleMarkdown(i));
    process.stdout.write(`\nCreating ${count} published articles of ~5 KB through POST /v1/articles…\n`);
    let n = 0;
    const post = await autocannon({
      url: `${base}/v1/articles`,
      method: 'POST',
      connections: CONNECTIONS,
      amount: count,
      headers,
      requests: [
        {
          setupRequest: (request) => {
            n += 1;
            return { ...request, body: JSON.stringify({ title: `Article ${n} ${WORDS[n % WORDS.length]}`, sectionId, markdown: bodies[n % bodies.length], publish: true }) };
          },
        },
      ],
    });
    process.stdout.write(`  POST /v1/articles (5 KB Markdown): ${post.requests.average.toFixed(0)} req/s, p99 ${post.latency.p99} ms, non-2xx ${post.non2xx}  (target >= 200/s: ${post.requests.average >= 200 ? 'met' : 'MISSED'})\n`);
    // Steady state: autovacuum would analyse the tables after such a load; without statistics the planner reads
    // 10 000 search vectors instead of using the GIN index.
    const analyse = new pg.Client({ connectionString: url });
    await analyse.connect();
    await analyse.query('ANALYZE articles, article_revisions, article_translations');
    await analyse.end();

    const path = '/v1/articles?page_size=100&format=html';
    const bare = await startProcess(BARE, [], { DATABASE_URL: url, PORT: '0' }, /listening on (\d+)/);
    try {
      const bareUrl = `http://127.0.0.1:${bare.match[1]}${path}`;
      const auth = { authorization: `Bearer ${key}` };
      await load(`${base}${path}`, auth, 2);
      await load(bareUrl, {}, 2);
      const service = await load(`${base}${path}`, auth, DURATION);
      const baseline = await load(bareUrl, {}, DURATION);
      const ratio = service.rps / baseline.rps;
      process.stdout.write(`\nGET ${path}  (${count} articles)\n${row('service', service)}\n${row('bare node:http + pg', baseline)}\n`);
      process.stdout.write(`  ratio service/bare: ${ratio.toFixed(2)}  (target >= 0.5: ${ratio >= 0.5 ? 'met' : 'MISSED'})\n`);
    } finally {
      await bare.stop();
    }

    // Page 100 via cursors, against page 1.
    let cursor: string | null = null;
    let deepest = path;
    for (let page = 1; page < 100; page++) {
      const body = (await call(base, key, 'GET', cursor ? `${path}&start_cursor=${encodeURIComponent(cursor)}` : path)) as { next_cursor: string | null };
      if (!body.next_cursor) break;
      cursor = body.next_cursor;
      deepest = `${path}&start_cursor=${encodeURIComponent(cursor)}`;
    }
    const auth = { authorization: `Bearer ${key}` };
    const first = await load(`${base}${path}`, auth, 5);
    const deep = await load(`${base}${deepest}`, auth, 5);
    const deepRatio = deep.p50 / Math.max(1, first.p50);
    process.stdout.write(`\nKeyset depth: page 1 p50 ${first.p50} ms vs page 100 p50 ${deep.p50} ms: ${deepRatio.toFixed(2)}x  (target <= 1.2x: ${deepRatio <= 1.2 ? 'met' : 'MISSED'})\n`);

    const list = (await call(base, key, 'GET', '/v1/articles?page_size=100')) as { results: Array<{ id: string }> };
    const one = await autocannon({ url: `${base}/v1/articles/${list.results[50]!.id}`, connections: CONNECTIONS, duration: 5, headers: auth });
    process.stdout.write(`GET /v1/articles/{id}: ${one.requests.average.toFixed(0)} req/s, p50 ${one.latency.p50} ms, p99 ${one.latency.p99} ms\n`);

    // Search latency, one query at a time so each figure is the query's own.
    const timings: number[] = [];
    const queries = ['password reset', 'billing invoice', '"team member"', 'webhook -token', 'subscription OR refund', 'mobile notification settings'];
    for (let i = 0; i < 120; i++) {
      const started = performance.now();
      await call(base, key, 'GET', `/v1/articles/search?query=${encodeURIComponent(queries[i % queries.length]!)}&page_size=20`);
      timings.push(performance.now() - started);
    }
    const p95 = percentile(timings, 95);
    process.stdout.write(`Search over ${count} articles: p50 ${percentile(timings, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms  (target <= 50 ms: ${p95 <= 50 ? 'met' : 'MISSED'})\n`);
  } finally {
    await api.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function benchEmbeddedStart(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hc-bench-embedded-'));
  const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '' };
  try {
    const first = await startProcess(API, [], env, READY);
    await first.stop();
    const warmStarts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const again = await startProcess(API, [], env, READY);
      warmStarts.push(again.readyAfterMs);
      await again.stop();
    }
    const warm = await startProcess(API, [], env, READY);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const rss = rssMiB(warm.child.pid!);
    const owner = JSON.parse(readFileSync(join(dataDir, 'postgres.json'), 'utf8')) as { postmasterPid: number };
    const postgres = processTree(owner.postmasterPid);
    const postgresRss = postgres.reduce((sum, pid) => sum + rssMiB(pid), 0);
    const postgresPss = pssMiB(postgres);
    await warm.stop();
    const median = warmStarts.sort((a, b) => a - b)[1]!;
    process.stdout.write('\nEmbedded mode (PostgreSQL server owned by the service)\n');
    process.stdout.write(`  first start, with initdb: ${first.readyAfterMs.toFixed(0)} ms  (target < 5000: ${first.readyAfterMs < 5000 ? 'met' : 'MISSED'})\n`);
    process.stdout.write(`  warm start (median of 3): ${median.toFixed(0)} ms  (target < 2000: ${median < 2000 ? 'met' : 'MISSED'})\n`);
    process.stdout.write(`  idle RSS of the Node process: ${rss} MiB  (target < 200: ${rss < 200 ? 'met' : 'MISSED'})\n`);
    process.stdout.write(`  idle PostgreSQL, ${postgres.length} processes: ${postgresPss} MiB PSS (${postgresRss} MiB RSS summed, shared pages counted in each)\n`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** 200 KB of bytes that pass as a PNG (the service checks the signature, it does not decode). */
function fakePng(size: number): Buffer {
  const bytes = randomBytes(size);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  return bytes;
}

/** Markdown with `references` images cycling over `definitions` reference definitions. */
function imageArticle(sources: readonly string[], references: number): string {
  const images = Array.from({ length: references }, (_, i) => `Step ${i + 1}\n\n![Screenshot ${i + 1}][img${i % sources.length}]`);
  const definitions = sources.map((src, i) => `[img${i}]: ${src}`);
  return [...images, ...definitions].join('\n\n');
}

async function benchImages(): Promise<void> {
  const url = await recreateDatabase('hc_bench_images');
  const dataDir = mkdtempSync(join(tmpdir(), 'hc-bench-images-'));
  const env = serviceEnv(url, dataDir);
  const api = await startProcess(API, [], env, READY);
  const base = baseUrlOf(api);
  try {
    const key = createKey(env, 'content:read,content:write');
    const sections = (await call(base, key, 'GET', '/v1/sections')) as { results: Array<{ id: string }> };
    const sectionId = sections.results[0]!.id;
    const dataUrls = Array.from({ length: 5 }, () => `data:image/png;base64,${fakePng(200 * 1024).toString('base64')}`);
    const markdown = imageArticle(dataUrls, 50);
    const timed = async (body: string): Promise<{ ms: number; id: string }> => {
      const started = performance.now();
      const article = (await call(base, key, 'POST', '/v1/articles', { title: 'Screenshots', sectionId, markdown: body })) as { id: string };
      return { ms: performance.now() - started, id: article.id };
    };
    const first = await timed(markdown);
    const stored = readdirSync(join(dataDir, 'uploads', 'user-images'));
    const json = (await call(base, key, 'GET', `/v1/articles/${first.id}?format=json`)) as { contentJson: unknown };
    const hostedPaths = [...new Set(JSON.stringify(json.contentJson).match(/\/user-images\/[0-9a-f]{64}\.png/g))];
    const hostedMarkdown = imageArticle(hostedPaths, 50);
    const runs = 10;
    const dataTimes: number[] = [];
    const hostedTimes: number[] = [];
    for (let i = 0; i < runs; i++) {
      dataTimes.push((await timed(markdown)).ms);
      hostedTimes.push((await timed(hostedMarkdown)).ms);
    }
    const after = readdirSync(join(dataDir, 'uploads', 'user-images'));
    const dataMedian = percentile(dataTimes, 50);
    const hostedMedian = percentile(hostedTimes, 50);
    process.stdout.write(`\nImages: one article, 50 references to 5 distinct 200 KB images as data URLs (${(Buffer.byteLength(markdown) / 1024 / 1024).toFixed(1)} MiB of Markdown)\n`);
    process.stdout.write(`  first write (stores the images):   ${first.ms.toFixed(0)} ms\n`);
    process.stdout.write(`  later writes, median of ${runs}:        ${dataMedian.toFixed(0)} ms\n`);
    process.stdout.write(`  same article, images already hosted: ${hostedMedian.toFixed(0)} ms  (ratio data URLs/hosted ${(dataMedian / hostedMedian).toFixed(2)})\n`);
    process.stdout.write(`  objects stored: ${stored.length} after the first write, ${after.length} after ${runs * 2 + 1} writes  (target 5: ${after.length === 5 && stored.length === 5 ? 'met' : 'MISSED'})\n`);
  } finally {
    await api.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface Measured extends Load {
  readonly requests: number;
  /** Mean response body size in bytes. */
  readonly bytes: number;
}

/** `paths` requested round-robin over CONNECTIONS connections for `duration` seconds. */
async function loadPaths(base: string, paths: readonly string[], headers: Record<string, string>, duration: number): Promise<Measured> {
  let next = 0;
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration,
    headers,
    requests: [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }) }],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    requests: result.requests.total,
    bytes: result.throughput.total / Math.max(1, result.requests.total),
  };
}

function measuredRow(name: string, m: Measured): string {
  return `${row(name.padEnd(30), m)}   ${(m.bytes / 1024).toFixed(1)} KB/response`;
}

const HELP_CENTER_SECTIONS = ['Getting started', 'Billing', 'Account and security'];
const HELP_CENTER_COLLECTIONS = 100;
const HELP_CENTER_SAMPLE = 200;

/**
 * The public article page against the JSON read of the same article: 10 000 published articles (~5 KB, headings
 * and callouts) in 100 collections over four sections, two languages enabled, a third of the measured articles
 * translated. A spread of 200 articles (a hash order of their IDs) is requested round-robin as
 * `GET /articles/{slug}` (no key, the full HTML page: layout, breadcrumbs, table of contents, related articles,
 * previous/next, language alternates) and as `GET /v1/articles/{id}` (a content:read key, format html), the ratio's
 * baseline; `GET /v1/public/articles/{id}` (no key, like the page) is reported beside them, and the page from a second
 * API process that keeps no rendered pages (HELP_CENTER_PAGE_CACHE_MB=0: every request reads and renders). Two
 * rounds, the second in the reverse order, so no side always runs on a warmer or a busier machine. `BENCH_API_PROFILE=<dir>` writes a
 * CPU profile of the service.
 */
async function benchHelpCenter(): Promise<void> {
  const url = await recreateDatabase('hc_bench_help_center');
  const dataDir = mkdtempSync(join(tmpdir(), 'hc-bench-help-center-'));
  const count = Number(process.env.BENCH_ARTICLES ?? 10_000);
  const env = serviceEnv(url, dataDir);
  const profile = process.env.BENCH_API_PROFILE;
  const [script, ...args] = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`, API] : [API];
  const api = await startProcess(script!, args, env, READY);
  const base = baseUrlOf(api);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  let rendering: Awaited<ReturnType<typeof startProcess>> | undefined;
  try {
    const key = createKey(env, 'legacy');
    const reader = createKey(env, 'content:read');
    await call(base, key, 'PATCH', '/v1/helpdesk', { name: 'Bench Help Center', languages: ['en', 'fr'] });
    const sections = (await call(base, key, 'GET', '/v1/sections')) as { results: Array<{ id: string }> };
    const sectionIds = [sections.results[0]!.id];
    for (const name of HELP_CENTER_SECTIONS) sectionIds.push(((await call(base, key, 'POST', '/v1/sections', { name })) as { id: string }).id);
    const collections: Array<{ id: string; sectionId: string }> = [];
    for (let batch = 0; batch < HELP_CENTER_COLLECTIONS; batch += 20) {
      const created = await Promise.all(
        Array.from({ length: Math.min(20, HELP_CENTER_COLLECTIONS - batch) }, (_, i) => {
          const sectionId = sectionIds[(batch + i) % sectionIds.length]!;
          const title = `${WORDS[(batch + i) % WORDS.length]} ${WORDS[(batch + i * 7 + 3) % WORDS.length]} ${batch + i}`;
          return call(base, key, 'POST', '/v1/collections', { title, subtitle: `Everything about ${title}`, sectionId }).then((c) => ({ id: (c as { id: string }).id, sectionId }));
        }),
      );
      collections.push(...created);
    }
    const bodies = Array.from({ length: 500 }, (_, i) => articleMarkdown(i));
    process.stdout.write(`\nHelp center: creating ${count} published articles in ${collections.length} collections through POST /v1/articles…\n`);
    const seedStarted = performance.now();
    let n = 0;
    const post = await autocannon({
      url: `${base}/v1/articles`,
      method: 'POST',
      connections: CONNECTIONS,
      amount: count,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      requests: [
        {
          setupRequest: (request) => {
            n += 1;
            const collection = collections[n % collections.length]!;
            const body = { title: `Article ${n} ${WORDS[n % WORDS.length]}`, sectionId: collection.sectionId, collectionId: collection.id, markdown: bodies[n % bodies.length], publish: true };
            return { ...request, body: JSON.stringify(body) };
          },
        },
      ],
    });
    if (post.non2xx > 0 || post.errors > 0) throw new Error(`Seeding: ${post.non2xx} non-2xx answers and ${post.errors} errors`);
    const { rows: sample } = await db.query<{ id: string; slug: string }>(
      "SELECT id, slug FROM articles WHERE status = 'published' ORDER BY md5(id) LIMIT $1",
      [HELP_CENTER_SAMPLE],
    );
    for (const [i, article] of sample.entries()) {
      if (i % 3 !== 0) continue;
      await call(base, key, 'PUT', `/v1/articles/${article.id}/translations/fr`, { title: `Article traduit ${i}`, markdown: bodies[(i + 7) % bodies.length] });
      await call(base, key, 'POST', `/v1/articles/${article.id}/translations/fr/publish`);
    }
    await db.query('ANALYZE');
    process.stdout.write(`  seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s (POST ${post.requests.average.toFixed(0)} req/s)\n`);

    const pagePaths = sample.map((a) => `/articles/${encodeURIComponent(a.slug)}`);
    const jsonPaths = sample.map((a) => `/v1/articles/${a.id}`);
    const page = await fetch(`${base}${pagePaths[0]}`);
    const html = await page.text();
    if (page.status !== 200 || !/^text\/html/.test(page.headers.get('content-type') ?? '') || !html.includes('</html>')) {
      throw new Error(`GET ${pagePaths[0]} answered ${page.status} ${page.headers.get('content-type')}: the help center pages are not served`);
    }
    const auth = { authorization: `Bearer ${reader}` };
    await call(base, reader, 'GET', jsonPaths[0]!);
    // A second API process on the same database that keeps no pages: every request reads and renders its page.
    rendering = await startProcess(API, [], { ...env, HELP_CENTER_PAGE_CACHE_MB: '0' }, READY);
    const renderingBase = baseUrlOf(rendering);
    const targets = [
      { name: 'GET /articles/{slug} (HTML)', base, paths: pagePaths, headers: {} },
      { name: 'GET /v1/articles/{id} (JSON)', base, paths: jsonPaths, headers: auth },
      { name: 'GET /v1/public/articles/{id}', base, paths: sample.map((a) => `/v1/public/articles/${a.id}`), headers: {} },
      { name: 'GET /articles/{slug} (rendered)', base: renderingBase, paths: pagePaths, headers: {} },
    ];
    const [kept, rendered] = await Promise.all([base, renderingBase].map((b) => fetch(`${b}${pagePaths[1]}`).then((r) => r.text())));
    if (kept !== rendered) throw new Error(`GET ${pagePaths[1]}: the kept page differs from the one rendered afresh`);
    for (const t of targets) await loadPaths(t.base, t.paths, t.headers, 3);
    // Two rounds, the second in the reverse order: [page, JSON, public JSON, page rendered every time] as measured in each round.
    const rounds: Measured[][] = [];
    for (const order of [[1, 2, 0, 3], [3, 0, 2, 1]]) {
      const round: Measured[] = [];
      for (const i of order) round[i] = await loadPaths(targets[i]!.base, targets[i]!.paths, targets[i]!.headers, DURATION);
      rounds.push(round);
    }
    const meanRps = (i: number) => rounds.reduce((sum, r) => sum + r[i]!.rps, 0) / rounds.length;
    const worstP99 = (i: number) => Math.max(...rounds.map((r) => r[i]!.p99));
    const ratio = meanRps(0) / meanRps(1);
    process.stdout.write(`\nArticle page against the JSON read  (${count} articles, ${sample.length} of them round-robin, ${CONNECTIONS} connections, ${DURATION} s each, 2 rounds)\n`);
    for (const [r, round] of rounds.entries()) {
      process.stdout.write(`  round ${r + 1}\n${round.map((m, i) => measuredRow(targets[i]!.name, m)).join('\n')}\n`);
    }
    process.stdout.write(`  page ${meanRps(0).toFixed(0)} req/s, p99 ${worstP99(0)} ms; JSON read ${meanRps(1).toFixed(0)} req/s, p99 ${worstP99(1)} ms (mean of the rounds, worst p99)\n`);
    process.stdout.write(`  ratio page/JSON read: ${ratio.toFixed(2)}  (target >= 0.7: ${ratio >= 0.7 ? 'met' : 'MISSED'})\n`);
    process.stdout.write(`  public JSON read (no key) ${meanRps(2).toFixed(0)} req/s, p99 ${worstP99(2)} ms; ratio page/public JSON ${(meanRps(0) / meanRps(2)).toFixed(2)}\n`);
    process.stdout.write(
      `  page rendered on every request (HELP_CENTER_PAGE_CACHE_MB=0, second process) ${meanRps(3).toFixed(0)} req/s, p99 ${worstP99(3)} ms; ratio to the JSON read ${(meanRps(3) / meanRps(1)).toFixed(2)}\n`,
    );
  } finally {
    await db.end();
    await rendering?.stop();
    await api.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const WORKER = join(root, 'dist/apps/worker/src/main.js');
const RECEIVER = join(here, 'webhook-receiver.js');
const BARE_WEBHOOKS = join(here, 'bare-webhook-loop.js');
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function deleteRedisPrefix(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

async function waitForSuccesses(db: pg.Client, expected: number, timeoutMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const { rows } = await db.query<{ n: string }>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'success'");
    if (Number(rows[0]!.n) >= expected) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`Only ${rows[0]!.n} of ${expected} deliveries succeeded in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function benchWebhooks(): Promise<void> {
  const url = await recreateDatabase('hc_bench_webhooks');
  const dataDir = mkdtempSync(join(tmpdir(), 'hc-bench-webhooks-'));
  const prefix = `hcbench${randomBytes(3).toString('hex')}`;
  const env = {
    ...serviceEnv(url, dataDir),
    REDIS_URL,
    REDIS_PREFIX: prefix,
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
    DATABASE_POOL_SIZE: process.env.BENCH_POOL_SIZE ?? '10',
  };
  const receiver = await startProcess(RECEIVER, [], {}, /listening on (\d+)/);
  const receiverUrl = `http://127.0.0.1:${receiver.match[1]}/hook`;
  const api = await startProcess(API, ['--role=api'], env, READY);
  // BENCH_WORKER_PROFILE=<dir>: the worker writes a CPU profile there when it stops.
  const profile = process.env.BENCH_WORKER_PROFILE;
  const [workerScript, ...workerArgs] = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`, WORKER] : [WORKER];
  const worker = await startProcess(workerScript!, workerArgs, { ...env, LOG_LEVEL: 'info' }, /Worker started/).catch(async (error: unknown) => {
    await api.stop();
    throw error;
  });
  const base = baseUrlOf(api);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const key = createKey(env, 'legacy');
    const sections = (await call(base, key, 'GET', '/v1/sections')) as { results: Array<{ id: string }> };
    const sectionId = sections.results[0]!.id;
    const endpoints = 1000;
    process.stdout.write(`\nRegistering ${endpoints} webhook endpoints…\n`);
    let secret = '';
    for (let i = 0; i < endpoints; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, endpoints - i) }, () => call(base, key, 'POST', '/v1/webhooks', { url: receiverUrl, events: ['*'] })),
      );
      secret = (batch[0] as { secret: string }).secret;
    }
    // Warm-up: one event through the whole pipeline.
    await call(base, key, 'POST', '/v1/articles', { title: 'Warm-up', sectionId, markdown: 'Warm-up' });
    await waitForSuccesses(db, endpoints, 60_000);

    const fanOutStarted = performance.now();
    await call(base, key, 'POST', '/v1/articles', { title: 'Fan-out', sectionId, markdown: articleMarkdown(1).slice(0, 1000) });
    await waitForSuccesses(db, 2 * endpoints, 60_000);
    const fanOutMs = performance.now() - fanOutStarted;

    const events = 10;
    const sustainedStarted = performance.now();
    for (let i = 0; i < events; i++) await call(base, key, 'POST', '/v1/articles', { title: `Sustained ${i}`, sectionId, markdown: articleMarkdown(i).slice(0, 1000) });
    await waitForSuccesses(db, (2 + events) * endpoints, 120_000);
    const sustainedSeconds = (performance.now() - sustainedStarted) / 1000;
    const perSecond = (events * endpoints) / sustainedSeconds;

    const { rows } = await db.query<{ type: string; occurred_at: Date; data: unknown }>("SELECT type, occurred_at, data FROM outbox_events WHERE type = 'article.created' ORDER BY id DESC LIMIT 1");
    const body = JSON.stringify({ type: rows[0]!.type, timestamp: rows[0]!.occurred_at.toISOString(), data: rows[0]!.data });
    const bare = execFileSync(process.execPath, [BARE_WEBHOOKS], {
      env: { ...process.env, RECEIVER_URL: receiverUrl, TOTAL: String(events * endpoints), CONCURRENCY: '100', BODY: body, SECRET: secret },
    }).toString();
    const baseline = JSON.parse(bare) as { perSecond: number };
    const ratio = perSecond / baseline.perSecond;
    process.stdout.write(`\nWebhooks (API + 1 worker, PostgreSQL + Redis, loopback receiver, ${endpoints} endpoints)\n`);
    process.stdout.write(`  one event to ${endpoints} endpoints, all success: ${fanOutMs.toFixed(0)} ms  (target < 3000: ${fanOutMs < 3000 ? 'met' : 'MISSED'})\n`);
    process.stdout.write(`  sustained: ${events * endpoints} deliveries in ${sustainedSeconds.toFixed(1)} s = ${perSecond.toFixed(0)}/s  (target >= 1000/s: ${perSecond >= 1000 ? 'met' : 'MISSED'})\n`);
    process.stdout.write(`  bare undici loop, same signed payloads: ${baseline.perSecond.toFixed(0)}/s; ratio service/bare ${ratio.toFixed(2)}\n`);
  } finally {
    await db.end();
    await worker.stop();
    await api.stop();
    await receiver.stop();
    await deleteRedisPrefix(prefix);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const only = process.argv[2];
  if (!only || only === 'collections') await benchCollections();
  if (!only || only === 'articles') await benchArticles();
  if (!only || only === 'embedded') await benchEmbeddedStart();
  if (!only || only === 'images') await benchImages();
  if (!only || only === 'webhooks') await benchWebhooks();
  if (!only || only === 'help-center') await benchHelpCenter();
}

main().catch((error: unknown) => {
  process.stderr.write(`Benchmark failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
