import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { ERROR_CODES, isStorableText } from '#core';
import { HTTP_STATUS_BY_CODE } from '#gateway';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';
import { DatabaseState } from '../support/db-state.js';

/**
 * Hostile input against every operation of the live OpenAPI document. Every write operation (POST, PUT, PATCH,
 * DELETE) gets hostile variants of a valid body (each string at any depth with NUL, unpaired surrogates, empty,
 * 1 MB and seeded random text; each value with wrong types, huge and odd numbers, deep nesting; unknown fields,
 * malformed JSON) and hostile path parameters; every operation with query parameters gets hostile values for
 * each. No answer may be a 5xx, every 4xx is the `{ error, code }` envelope, and a refused write stores nothing
 * (every table's rows are fingerprinted after each write request). Deterministic: FUZZ_SEED picks the random
 * strings (default below); a failure names the seed, operation and variant to replay it.
 */

jest.setTimeout(180_000);

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124);

/** mulberry32: a small, fast seeded PRNG, so every run sends the same requests. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const random = prng(SEED);
/** Pieces of hostile text: unstorable (NUL, lone surrogates), invisible, direction overrides, markup, quotes, escapes. */
const HOSTILE_PIECES = [
  '\u0000', '\ud800', '\udfff', '\udc00\ud800', '\ud83d\ude00', '\u202e', '\u0301', '\ufeff', '\u2028', '\u0085', '\uffff', '\ufffe',
  '\u{10ffff}', '漢字', '<script>alert(1)</script>', '"', "'", '\\', '\\u0000', '%00', '${x}', '\n', '\r\n', '\t', ' ', 'a', 'word', '::',
  '[x](javascript:alert(1))', '![i](x.png)', '&amp;', '\u001b[31m',
];
/** Random text from the hostile pieces; every other one without the unstorable ones, to reach what lies past the edge check. */
function randomText(storableOnly: boolean): string {
  const pieces = storableOnly ? HOSTILE_PIECES.filter(isStorableText) : HOSTILE_PIECES;
  let text = '';
  const length = 1 + Math.floor(random() * 12);
  for (let i = 0; i < length; i++) text += pieces[Math.floor(random() * pieces.length)];
  return text;
}

/** A value sent as raw JSON text (numbers JavaScript cannot hold, -0). */
class Raw {
  constructor(readonly json: string) {}
}

const MB = 'x'.repeat(1024 * 1024);
const nested = (depth: number): unknown => {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

function stringVariants(): Array<[string, unknown]> {
  return [
    ['NUL inside', 'a\u0000b'],
    ['only NUL', '\u0000'],
    ['lone high surrogate', '\ud800'],
    ['lone low surrogate at the end', 'text\udc00'],
    ['reversed surrogate pair', '\udc00\ud800'],
    ['empty string', ''],
    ['whitespace only', ' \t\n'],
    ['1 MB string', MB],
    ['random hostile text', randomText(false)],
    ['random storable text', randomText(true)],
  ];
}

const TYPE_VARIANTS: Array<[string, unknown]> = [
  ['zero', 0],
  ['negative', -1],
  ['fraction', 1.5],
  ['1e400 (Infinity)', new Raw('1e400')],
  ['20-digit integer', new Raw('99999999999999999999')],
  ['2^53 + 1', new Raw('9007199254740993')],
  ['-0', new Raw('-0')],
  ['true', true],
  ['null', null],
  ['empty array', []],
  ['empty object', {}],
  ['array of a string', ['x']],
  ['object', { a: 'b' }],
  ['a string', 'str'],
  ['60 nested arrays', nested(60)],
];
/** Fewer for values inside the body's nested objects, which sit behind the same checks. */
const NESTED_TYPE_VARIANTS = TYPE_VARIANTS.filter(([label]) => ['negative', '1e400 (Infinity)', 'null', 'empty array', 'empty object', 'a string', 'true'].includes(label));

/** JSON text of a body, with Raw values spliced in as written. */
function serialize(body: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (value instanceof Raw) {
      raws.push(value.json);
      return `\u0001raw${raws.length - 1}\u0001`;
    }
    return value;
  });
  return text.replace(/"\\u0001raw(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)]);
}

type Path = ReadonlyArray<string | number>;

function setAt(body: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]] = value;
  return copy;
}

/** Every value in a body with its path (root excluded), depth first. */
function paths(value: unknown, prefix: Path = []): Array<[Path, unknown]> {
  if (value === null || typeof value !== 'object') return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return entries.flatMap(([key, child]) => [[[...prefix, key], child] as [Path, unknown], ...paths(child, [...prefix, key])]);
}

interface Variant {
  readonly label: string;
  readonly body?: string;
  readonly contentType?: string;
}

function bodyVariants(valid: Record<string, unknown>): Variant[] {
  const variants: Variant[] = [
    { label: 'malformed JSON {not json', body: '{not json' },
    { label: 'truncated JSON', body: serialize(valid).slice(0, -1) },
    { label: 'JSON array body', body: '[]' },
    { label: 'JSON string body', body: '"x"' },
    { label: 'JSON null body', body: 'null' },
    { label: 'empty object', body: '{}' },
    { label: 'unknown field', body: serialize({ ...valid, zzUnknown: 'x' }) },
    { label: '__proto__ key', body: serialize(valid).replace(/^\{/, '{"__proto__":{"admin":true},') },
    { label: 'NUL in a property name', body: serialize(valid).replace(/^\{/, '{"a\\u0000b":1,') },
    { label: 'lone surrogate in a property name', body: serialize(valid).replace(/^\{/, '{"\\ud800":1,') },
    { label: '300 nested arrays', body: serialize({ ...valid, zzDeep: nested(300) }) },
    { label: '5000 nested objects', body: `{"a":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}` },
    { label: 'not JSON (text/plain)', body: serialize(valid), contentType: 'text/plain' },
  ];
  for (const [path, value] of paths(valid)) {
    const at = path.join('.');
    const topLevel = path.length === 1;
    if (typeof value === 'string') {
      for (const [label, hostile] of stringVariants()) variants.push({ label: `${at}: ${label}`, body: serialize(setAt(valid, path, hostile)) });
    }
    for (const [label, hostile] of topLevel ? TYPE_VARIANTS : NESTED_TYPE_VARIANTS) {
      if (typeof value === 'string' && label === 'a string') continue;
      variants.push({ label: `${at}: ${label}`, body: serialize(setAt(valid, path, hostile)) });
    }
  }
  return variants;
}

/** Hostile path segments, percent-encoded as they go on the wire. */
const PATH_VARIANTS: Array<[string, string]> = [
  ['NUL', '%00'],
  ['NUL inside', 'a%00b'],
  ['encoded surrogate (invalid UTF-8)', '%ED%A0%80'],
  ['overlong NUL (invalid UTF-8)', '%C0%80'],
  ['invalid byte', '%FF'],
  ['double-encoded NUL', '%2500'],
  ['2000 characters', 'x'.repeat(2000)],
  ['20-digit number', '99999999999999999999'],
  ['negative number', '-1'],
  ['space', '%20'],
  ['dot dot', '..'],
  ['encoded slash', '%2F'],
  ['quote and SQL', "%27%3B--"],
  ['emoji', '%F0%9F%98%80'],
];

/** Hostile query values as query string fragments for parameter `name`. */
function queryVariants(name: string): Array<[string, string]> {
  const q = (value: string) => `${name}=${value}`;
  return [
    ['NUL', q('%00')],
    ['encoded surrogate (invalid UTF-8)', q('%ED%A0%80')],
    ['empty', q('')],
    ['2000 characters', q('x'.repeat(2000))],
    ['20-digit number', q('99999999999999999999')],
    ['bigint overflow', q('9223372036854775808')],
    ['negative', q('-1')],
    ['1e309', q('1e309')],
    ['hex', q('0x10')],
    ['fraction', q('1.5')],
    ['NaN', q('NaN')],
    ['Infinity', q('Infinity')],
    ['twice', `${q('1')}&${q('2')}`],
    ['object', `${name}[a]=1`],
    ['__proto__', `${name}[__proto__][x]=1`],
  ];
}

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly params: ReadonlyArray<{ in: string; name: string; required?: boolean }>;
  readonly hasBody: boolean;
}

interface Sent {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly text: string;
}

describe('fuzz: hostile input on every operation of the OpenAPI document', () => {
  let t: TestApp;
  let key: string;
  let db: DatabaseState;
  let operations: Operation[];
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const ids: Record<string, string> = {};

  /** One raw request: the path goes on the wire exactly as written (no normalising of %-escapes or dot segments). */
  function send(method: string, path: string, body?: string, contentType = 'application/json'): Promise<Sent> {
    const url = new URL(t.url);
    const headers: Record<string, string | number> = { ...bearer(key) };
    if (body !== undefined) {
      headers['content-type'] = contentType;
      headers['content-length'] = Buffer.byteLength(body);
    }
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, contentType: res.headers['content-type'], text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  async function create(path: string, body: Record<string, unknown>): Promise<string> {
    const res = await send('POST', path, JSON.stringify(body));
    if (res.status !== 201) throw new Error(`fixture ${path}: ${res.status} ${res.text}`);
    return (JSON.parse(res.text) as { id: string }).id;
  }

  const doc = () => ({
    type: 'doc',
    content: [
      { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Reset your password' }] },
      {
        type: 'paragraph',
        content: [
          { type: 'text', text: 'Open ' },
          { type: 'text', text: 'settings', marks: [{ type: 'link', attrs: { href: 'https://example.com/settings', title: 'Settings' } }, { type: 'strong' }] },
        ],
      },
      { type: 'code_block', attrs: { language: 'bash' }, content: [{ type: 'text', text: 'reset --now' }] },
      { type: 'callout', attrs: { variant: 'warning' }, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Careful' }] }] },
    ],
  });

  /** A valid body (or several: content and markdown are exclusive) of every write operation that takes one. */
  function validBodies(): Record<string, Array<Record<string, unknown>>> {
    return {
      'PATCH /v1/helpdesk': [{ name: 'Fuzzed help center', languages: ['en', 'fr'] }],
      'POST /v1/sections': [{ name: 'Fuzzed', position: 3, isDefault: false }],
      'PATCH /v1/sections/{id}': [{ name: 'Fuzzed section', position: 1 }],
      'PUT /v1/sections/{id}/translations/{language}': [{ name: 'Section fr', status: 'draft' }],
      'POST /v1/collections': [{ title: 'Fuzzed', subtitle: 'Sub', sectionId: ids.section, parentCollectionId: null, shortId: 'fuzz-col' }],
      'PATCH /v1/collections/{id}': [{ title: 'Fuzzed collection', subtitle: 'Sub', shortId: 'fuzz-col-2' }],
      'POST /v1/collections/{id}/move': [{ section_id: ids.section, parent_collection_id: null }],
      'PUT /v1/collections/{id}/translations/{language}': [{ title: 'Collection fr', subtitle: 'Sous-titre', status: 'published' }],
      'POST /v1/articles': [
        { title: 'Fuzzed', sectionId: ids.section, collectionId: ids.collection, content: doc(), keywords: 'k', metaDescription: 'm', ogImage: 'https://example.com/i.png', slug: 'fuzzed', publish: false },
        { title: 'Fuzzed markdown', sectionId: ids.section, markdown: '# Reset\n\nOpen [settings](https://example.com) **now**.\n\n:::callout{variant="info"}\nNote\n:::' },
      ],
      'PATCH /v1/articles/{id}': [
        { title: 'Fuzzed draft', content: doc(), keywords: 'k', metaDescription: 'm', ogImage: null },
        { markdown: '## Steps\n\n1. One\n2. Two' },
      ],
      'POST /v1/articles/{id}/move': [{ collection_id: ids.collection, section_id: ids.section }],
      'PUT /v1/articles/{id}/translations/{locale}': [{ title: 'Article fr', content: doc() }, { title: 'Article fr', markdown: 'Bonjour **monde**' }],
      'POST /v1/webhooks': [{ url: 'http://127.0.0.1:9/hook', events: ['article.published', 'task.completed'], description: 'Fuzzed' }],
      'PATCH /v1/webhooks/{id}': [{ url: 'http://127.0.0.1:9/other', events: ['*'], description: 'Fuzzed endpoint' }],
      'POST /v1/tasks': [
        { instruction: 'Rename "Reset" to "Restore"', title: 'Fuzzed', targetArticleId: ids.article, targetCollectionId: ids.collection, targetSectionId: ids.section, autoApply: false },
      ],
      'PATCH /v1/feedback/{id}': [{ resolved: true }],
      'POST /v1/users': [{ email: 'fuzz@example.com', name: 'Fuzz' }],
      'PATCH /v1/users/{id}': [{ email: 'fuzz-user@example.com', name: 'Fuzz user' }],
      'POST /v1/public/articles/{id}/feedback': [{ type: 'negative', feedback: 'Out of date', email: 'reader@example.com' }],
    };
  }

  /** A real value for every path parameter, so the hostile one is the only thing wrong. */
  function pathValue(path: string, name: string): string {
    if (name === 'language' || name === 'locale') return 'fr';
    if (name === 'revisionId') return '1';
    if (name === 'deliveryId') return 'whdl_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';
    if (name === 'outputId') return 'tout_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';
    if (name === 'name') return `${'0'.repeat(64)}.png`;
    const resource = /^\/v1\/(?:public\/)?(\w+)/.exec(path)?.[1];
    const byResource: Record<string, string> = {
      sections: ids.section,
      collections: ids.collection,
      articles: ids.article,
      webhooks: ids.webhook,
      tasks: ids.task,
      feedback: ids.feedback,
      users: ids.user,
    };
    const value = name === 'id' && resource ? byResource[resource] : undefined;
    if (!value) throw new Error(`No fixture value for path parameter ${name} of ${path}`);
    return value;
  }

  /** Query parameters the others need to reach their checks (search needs a query; offsets go with a limit). */
  function baseQuery(operation: Operation, fuzzed: string): string[] {
    const names = new Set(operation.params.filter((p) => p.in === 'query').map((p) => p.name));
    const base: string[] = [];
    if (names.has('query') && fuzzed !== 'query') base.push('query=password');
    if (names.has('against') && fuzzed !== 'against') base.push('against=1');
    if (fuzzed === 'offset' && names.has('limit')) base.push('limit=1');
    return base;
  }

  function fill(operation: Operation, hostile?: { name: string; value: string }): string {
    return operation.path.replace(/\{(\w+)\}/g, (_m, name: string) => (hostile?.name === name ? hostile.value : encodeURIComponent(pathValue(operation.path, name))));
  }

  beforeAll(async () => {
    // Jobs go to Redis and stay there: no task runs and no relay writes while the tables are compared.
    t = await startTestApp({
      redis: true,
      runsJobs: false,
      env: {
        ...NO_LIMITS,
        HELPDESK_LANGUAGES: 'en,fr',
        RATE_LIMIT_PUBLIC_FEEDBACK_PER_MINUTE: '100000',
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      },
    });
    key = await t.key(null);
    ids.section = await create('/v1/sections', { name: 'Fixture' });
    ids.collection = await create('/v1/collections', { title: 'Fixture', sectionId: ids.section });
    ids.article = await create('/v1/articles', { title: 'How to reset a password', sectionId: ids.section, markdown: 'Open settings to reset your password.', publish: true });
    await send('PATCH', `/v1/articles/${ids.article}`, JSON.stringify({ markdown: 'A pending draft.' }));
    ids.webhook = await create('/v1/webhooks', { url: 'http://127.0.0.1:9/fixture', events: ['*'] });
    ids.user = await create('/v1/users', { email: 'fixture@example.com' });
    ids.feedback = await create(`/v1/public/articles/${ids.article}/feedback`, { type: 'positive', feedback: 'Helpful' });
    const task = await send('POST', '/v1/tasks', JSON.stringify({ instruction: 'Write an article about passwords' }));
    ids.task = (JSON.parse(task.text) as { id: string }).id;
    const document = JSON.parse((await send('GET', '/v1/openapi.json')).text) as { paths: Record<string, Record<string, { parameters?: Operation['params']; requestBody?: unknown }>> };
    operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, op]) => ({ method: method.toUpperCase(), path, params: (op.parameters ?? []).filter((p) => p.in !== 'header'), hasBody: op.requestBody !== undefined })),
    );
    db = await DatabaseState.open(t.databaseUrl!);
  });

  afterAll(async () => {
    agent.destroy();
    await db?.close();
    await t?.close();
  });

  it('every write operation has a valid body to start from and every path parameter a value', () => {
    const bodies = validBodies();
    const writes = operations.filter((op) => op.method !== 'GET');
    expect(writes.length).toBeGreaterThanOrEqual(30);
    expect(writes.filter((op) => op.hasBody && !bodies[`${op.method} ${op.path}`]).map((op) => `${op.method} ${op.path}`)).toEqual([]);
    for (const op of operations) for (const p of op.params.filter((p) => p.in === 'path')) expect(() => pathValue(op.path, p.name)).not.toThrow();
  });

  it('answers every hostile request with a 2xx or a 4xx in the error envelope, and a refused write stores nothing', async () => {
    const started = Date.now();
    const bodies = validBodies();
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    let state = await db.snapshot();

    const check = async (op: Operation, label: string, path: string, res: Sent): Promise<void> => {
      sent++;
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const where = `${op.method} ${path.length > 160 ? `${path.slice(0, 160)}…` : path} [${label}] (FUZZ_SEED=${SEED})`;
      if (res.status >= 500) failures.push(`${where}: ${res.status} ${res.text.slice(0, 300)}`);
      if (res.status >= 400) {
        const body = (() => {
          try {
            return JSON.parse(res.text) as Record<string, unknown>;
          } catch {
            return null;
          }
        })();
        // The envelope may also carry the request's ID and a link to the code's documentation; nothing else.
        const { error, code, details, requestId: _id, docUrl: _doc, ...rest } = body ?? {};
        const envelope =
          /^application\/json/.test(res.contentType ?? '') &&
          typeof error === 'string' &&
          error.length > 0 &&
          (ERROR_CODES as readonly unknown[]).includes(code) &&
          HTTP_STATUS_BY_CODE[code as keyof typeof HTTP_STATUS_BY_CODE] === res.status &&
          Object.keys(rest).length === 0 &&
          (details === undefined || (Array.isArray(details) && details.every((d: { field?: unknown; message?: unknown }) => typeof d.field === 'string' && typeof d.message === 'string')));
        if (!envelope) failures.push(`${where}: ${res.status} without the { error, code } envelope: ${res.text.slice(0, 300)}`);
      }
      if (op.method === 'GET') return;
      const after = await db.snapshot();
      if (res.status >= 300) {
        const changed = DatabaseState.changed(state, after);
        if (changed.length > 0) failures.push(`${where}: refused with ${res.status} but changed ${changed.join(', ')}`);
      }
      state = after;
    };

    for (const op of operations) {
      const queryParams = op.params.filter((p) => p.in === 'query');
      const pathParams = op.params.filter((p) => p.in === 'path');
      const valid = op.hasBody ? (bodies[`${op.method} ${op.path}`] ?? [{}]) : [];
      const isWrite = op.method !== 'GET';
      // The body every path and query variant carries: a valid one, so that the hostile part is what is judged.
      const carried = valid[0] ? serialize(valid[0]) : undefined;

      if (isWrite) {
        for (const body of valid) {
          for (const variant of bodyVariants(body)) {
            const path = fill(op);
            await check(op, variant.label, path, await send(op.method, path, variant.body, variant.contentType));
          }
        }
        if (!op.hasBody) {
          const path = fill(op);
          await check(op, 'malformed JSON body on an operation without one', path, await send(op.method, path, '{not json'));
        }
      }
      for (const param of pathParams) {
        for (const [label, value] of PATH_VARIANTS) {
          const path = fill(op, { name: param.name, value });
          await check(op, `path ${param.name}: ${label}`, path, await send(op.method, path, carried));
        }
      }
      for (const param of queryParams) {
        for (const [label, fragment] of queryVariants(param.name)) {
          const path = `${fill(op)}?${[...baseQuery(op, param.name), fragment].join('&')}`;
          await check(op, `query ${param.name}: ${label}`, path, await send(op.method, path, carried));
        }
      }
    }

    const seconds = (Date.now() - started) / 1000;
    const byStatus = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ');
    process.stdout.write(`fuzz: ${operations.length} operations, ${sent} requests in ${seconds.toFixed(1)} s (seed ${SEED}): ${byStatus}\n`);
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(2000);
  });
});
