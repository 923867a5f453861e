import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Response } from 'supertest';
import { type Scope, SCOPES } from '#core';
import { bearer, startTestApp, type TestApp } from '../support/app.js';

// Booting an app against a fresh database can take a few seconds on a busy machine. The e2e project's
// testTimeout is not applied (jest-circus takes testTimeout from the global config), so set it here.
jest.setTimeout(60_000);

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/**
 * Every route of the API with the scope it requires (CONTRACT §3), its success status and a valid body.
 * `{section}` and `{collection}` are replaced by fresh resources for every request.
 * Adding a route: one line here (the OpenAPI check below fails until it is added).
 */
interface RouteCase {
  readonly method: Method;
  readonly path: string;
  readonly scope: Scope;
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
  return key.scopes === null || key.scopes.some((scope) => GRANTS[scope].includes(route.scope));
}

const CASES = ROUTES.flatMap((route) => KEYS.map((key) => ({ route, key, allowed: allows(key, route) })));

interface Ids {
  readonly section: string;
  readonly collection: string;
  readonly article: string;
  readonly trashed: string;
}

describe('scope matrix: every route against every kind of key', () => {
  let t: TestApp;
  let admin: string;
  let defaultSection: string;
  const trashedIds: string[] = [];
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

  /** Everything any route of the matrix could change, read with the admin key. */
  async function state(): Promise<unknown> {
    const [helpdesk, sections, collections, articles, trashed] = await Promise.all([
      t.http.get('/v1/helpdesk').set(bearer(admin)).expect(200),
      all('/v1/sections'),
      all('/v1/collections'),
      all('/v1/articles', '&status=all&format=json'),
      Promise.all(trashedIds.map((id) => t.http.get(`/v1/articles/${id}`).set(bearer(admin)).then((res) => res.body as unknown))),
    ]);
    return { helpdesk: helpdesk.body, sections, collections, articles, trashed };
  }

  /**
   * Fresh resources for one request, so that deletes, moves and state changes have something to act on: a
   * section, a collection, a published article with an open draft (two revisions), and a trashed draft article.
   */
  async function fixtures(): Promise<Ids> {
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
    return { section: section.body.id, collection: collection.body.id, article: article.body.id, trashed: trashed.body.id };
  }

  /** Removes what a case left behind (articles out of the collection first, the collection before the section). */
  async function cleanUp(ids: Ids): Promise<void> {
    for (const article of [ids.article, ids.trashed]) {
      await t.http.post(`/v1/articles/${article}/move`).set(bearer(admin)).send({ collection_id: null });
    }
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
      .replaceAll('{default}', defaultSection);
    return JSON.parse(filled) as T;
  }

  function send(route: RouteCase, key: string, ids: Ids): Promise<Response> {
    const request = t.http[route.method](fill(route.path, ids)).set(bearer(key));
    return route.body ? request.send(fill(route.body, ids)) : request;
  }

  beforeAll(async () => {
    // The matrix sends a few hundred requests with the admin key; the rate limit is not under test here.
    t = await startTestApp({
      env: { HELPDESK_LANGUAGES: 'en,fr', RATE_LIMIT_REQUESTS_PER_MINUTE: '1000000', RATE_LIMIT_CREATE_ARTICLES_PER_HOUR: '1000000' },
    });
    admin = await t.key(null);
    defaultSection = ((await t.http.get('/v1/sections').set(bearer(admin)).expect(200)).body.results as Array<{ id: string }>)[0]!.id;
    for (const key of KEYS) plainKeys.set(key.label, await t.key(key.scopes));
  });
  afterAll(() => t.close());

  it('covers exactly the operations the OpenAPI document lists, with the scope it documents', async () => {
    const document = (await t.http.get('/v1/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { 'x-required-scopes'?: string[] }>>;
    };
    const documented = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/v1/'))
      .flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
          .map(([method, operation]) => `${method.toUpperCase()} ${path} ${JSON.stringify(operation['x-required-scopes'])}`),
      )
      .sort();
    const matrix = ROUTES.map((route) => {
      const path = route.path
        .replace(/\{(section|collection|article|trashed)\}/, '{id}')
        .replace(/^(\/v1\/articles\/\{id\}\/translations\/)fr/, '$1{locale}')
        .replace('/translations/fr', '/translations/{language}')
        .replace(/\/revisions\/\d+/, '/revisions/{revisionId}')
        .replace(/\?.*$/, '');
      return `${route.method.toUpperCase()} ${path} ${JSON.stringify([route.scope])}`;
    }).sort();
    expect(matrix).toEqual(documented);
  });

  it.each(CASES.filter((c) => c.allowed).map((c) => [c.route.method.toUpperCase(), c.route.path, c.key.label, c.route]))(
    '%s %s lets a %s key through',
    async (_method, _path, label, route) => {
      const ids = await fixtures();
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
      const ids = await fixtures();
      const before = await state();
      const res = await send(route as RouteCase, plainKeys.get(label as string)!, ids);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: expect.any(String), code: 'insufficient_scope' });
      expect(res.body.error).toContain((route as RouteCase).scope);
      expect(await state()).toEqual(before);
      await cleanUp(ids);
    },
  );

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
