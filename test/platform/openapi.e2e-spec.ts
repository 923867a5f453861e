import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { ERROR_CODES, SCOPES } from '#core';
import { SECURITY_SCHEME } from '#gateway';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { siteRouteList } from '../../apps/api/src/help-center/site-routes.js';

// Booting an app against a fresh database can take a few seconds on a busy machine. The e2e project's
// testTimeout is not applied (jest-circus takes testTimeout from the global config), so set it here.
jest.setTimeout(60_000);

/** The routes the API serves, as the product spec lists them (CONTRACT §5, §11). Adding a route: one line. */
const SERVED = [
  'GET /healthz',
  'GET /readyz',
  'GET /v1/helpdesk',
  'PATCH /v1/helpdesk',
  'GET /v1/sections',
  'POST /v1/sections',
  'GET /v1/sections/{id}',
  'PATCH /v1/sections/{id}',
  'DELETE /v1/sections/{id}',
  'PUT /v1/sections/{id}/translations/{language}',
  'GET /v1/collections',
  'POST /v1/collections',
  'GET /v1/collections/{id}',
  'PATCH /v1/collections/{id}',
  'DELETE /v1/collections/{id}',
  'POST /v1/collections/{id}/move',
  'PUT /v1/collections/{id}/translations/{language}',
  'POST /v1/articles',
  'GET /v1/articles',
  'GET /v1/articles/{id}',
  'PATCH /v1/articles/{id}',
  'DELETE /v1/articles/{id}',
  'GET /v1/articles/{id}/draft',
  'DELETE /v1/articles/{id}/draft',
  'POST /v1/articles/{id}/publish',
  'POST /v1/articles/{id}/unpublish',
  'POST /v1/articles/{id}/restore',
  'POST /v1/articles/{id}/move',
  'GET /v1/articles/{id}/revisions',
  'GET /v1/articles/{id}/revisions/{revisionId}',
  'GET /v1/articles/{id}/revisions/{revisionId}/diff',
  'GET /v1/articles/search',
  'GET /v1/articles/translations/missing',
  'GET /v1/articles/{id}/translations',
  'PUT /v1/articles/{id}/translations/{locale}',
  'POST /v1/articles/{id}/translations/{locale}/publish',
  'GET /static/user-images/{name}',
  'POST /v1/webhooks',
  'GET /v1/webhooks',
  'GET /v1/webhooks/{id}',
  'PATCH /v1/webhooks/{id}',
  'DELETE /v1/webhooks/{id}',
  'POST /v1/webhooks/{id}/enable',
  'POST /v1/webhooks/{id}/disable',
  'POST /v1/webhooks/{id}/secret/rotate',
  'GET /v1/webhooks/{id}/deliveries',
  'GET /v1/webhooks/{id}/deliveries/{deliveryId}',
  'POST /v1/webhooks/{id}/deliveries/{deliveryId}/retry',
  'POST /v1/webhooks/{id}/test',
  'POST /v1/tasks',
  'GET /v1/tasks',
  'GET /v1/tasks/{id}',
  'POST /v1/tasks/{id}/cancel',
  'GET /v1/tasks/{id}/outputs/{outputId}',
  'POST /v1/tasks/{id}/outputs/{outputId}/apply',
  'POST /v1/tasks/{id}/outputs/{outputId}/reject',
  'GET /v1/feedback',
  'PATCH /v1/feedback/{id}',
  'GET /v1/articles/{id}/feedback/summary',
  'POST /v1/users',
  'GET /v1/users',
  'GET /v1/users/{id}',
  'PATCH /v1/users/{id}',
  'GET /v1/public/articles',
  'GET /v1/public/articles/{id}',
  'POST /v1/public/articles/{id}/feedback',
];

/** Routes that need no key: the health probes and article images (served under STATIC_URL, outside /v1). */
const PUBLIC = ['/healthz', '/readyz', '/static/user-images/{name}', '/v1/public/articles', '/v1/public/articles/{id}', '/v1/public/articles/{id}/feedback'];
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const SITE_ROUTES = siteRouteList();

interface Operation {
  operationId?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  requestBody?: { content?: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  security?: Array<Record<string, string[]>>;
  'x-required-scopes'?: string[];
}

interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, { enum?: string[] }>; required?: string[] }>; securitySchemes: Record<string, Record<string, unknown>> };
  security?: unknown;
}

describe('OpenAPI document and reference', () => {
  let t: TestApp;
  let doc: Document;
  let operations: Array<{ method: string; path: string; operation: Operation }>;

  beforeAll(async () => {
    t = await startTestApp({});
    const res = await t.http.get('/v1/openapi.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.body as Document;
    operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, operation]) => ({ method, path, operation })),
    );
  });
  afterAll(() => t.close());

  it("lists the origin the reference was opened at first, so /docs' Try it out works at 127.0.0.1 as at localhost", async () => {
    const viaPublicUrl = (await t.http.get('/v1/openapi.json').set('Host', 'help.test').expect(200)).body as Document & { servers: Array<{ url: string }> };
    expect(viaPublicUrl.servers.map((server) => server.url)).toEqual(['http://help.test']);
    const viaAddress = (await t.http.get('/v1/openapi.json').set('Host', '127.0.0.1:8123').expect(200)).body as Document & { servers: Array<{ url: string }> };
    expect(viaAddress.servers.map((server) => server.url)).toEqual(['http://127.0.0.1:8123', 'http://help.test']);
    const hostile = (await t.http.get('/v1/openapi.json').set('Host', 'evil"><script>').expect(200)).body as Document & { servers: Array<{ url: string }> };
    expect(hostile.servers.map((server) => server.url)).toEqual(['http://help.test']);
  });

  it('is served at /v1/openapi.json without a key, as OpenAPI 3.1', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toEqual(expect.any(String));
    expect(doc.info.version).toEqual(expect.any(String));
  });

  it('documents exactly the routes the API serves', () => {
    expect(operations.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort()).toEqual([...SERVED].sort());
  });

  it('lists only routes the app really answers (none of them is an unknown route)', async () => {
    const key = await t.key(null);
    for (const entry of SERVED) {
      const [method, template] = entry.split(' ') as [string, string];
      const path = template.replace('{id}', 'x_unknown').replace('{language}', 'en').replace('{revisionId}', '1').replace('{locale}', 'fr').replace('{name}', `${'0'.repeat(64)}.png`);
      const res = await t.http[method.toLowerCase() as 'get'].call(t.http, path).set(bearer(key)).send({});
      expect({ entry, error: res.body?.error }).not.toEqual({ entry, error: 'No such route' });
      expect(res.status).not.toBe(405);
    }
  });

  it('serves no route that the document leaves out (express router, besides the reference itself)', () => {
    const express = t.app.getHttpAdapter().getInstance() as { router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> } };
    const served = express.router.stack
      .flatMap((layer) => (layer.route ? [layer.route] : []))
      // Nest's middleware binding registers every method on a path prefix; routes have one method.
      .filter((route) => Object.keys(route.methods).length === 1)
      .map((route) => `${Object.keys(route.methods)[0]!.toUpperCase()} ${route.path.replace(/:(\w+)/g, '{$1}')}`)
      .filter((route) => !/^GET \/docs(\/|$)/.test(route) && route !== 'GET /v1/openapi.json')
      // The public help center's HTML pages (apps/api/src/help-center) are a site, not API operations.
      .filter((route) => !SITE_ROUTES.includes(route))
      // So are the developer settings' pages and forms (apps/api/src/settings), all under /settings.
      .filter((route) => !/^[A-Z]+ \/settings(\/|$)/.test(route));
    expect(served.sort()).toEqual([...SERVED].sort());
  });

  it('declares the API-key bearer scheme (not a JWT)', () => {
    const scheme = doc.components.securitySchemes[SECURITY_SCHEME];
    expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(scheme!.bearerFormat).not.toBe('JWT');
    // Security is per operation: the health probes need none.
    expect(doc.security).toBeUndefined();
  });

  it('gives every /v1 operation its required scopes and a security requirement naming them', () => {
    const v1 = operations.filter((o) => o.path.startsWith('/v1/') && !PUBLIC.includes(o.path));
    expect(v1.length).toBeGreaterThan(0);
    for (const { method, path, operation } of v1) {
      const scopes = operation['x-required-scopes'];
      expect({ op: `${method} ${path}`, scopes }).toEqual({ op: `${method} ${path}`, scopes: expect.arrayContaining([expect.any(String)]) });
      for (const scope of scopes!) expect(SCOPES).toContain(scope);
      expect({ op: `${method} ${path}`, security: operation.security }).toEqual({ op: `${method} ${path}`, security: [{ [SECURITY_SCHEME]: scopes }] });
    }
  });

  it('documents reads as content:read, writes as content:write, making changes live as content:publish, webhooks as webhooks:manage', () => {
    const PUBLISH = ['post /v1/articles/{id}/publish', 'post /v1/articles/{id}/unpublish', 'delete /v1/articles/{id}', 'post /v1/articles/{id}/translations/{locale}/publish'];
    // Help center users are people (names, emails), read with content:write (CONTRACT §8).
    const WRITE_READS = ['get /v1/articles/{id}/draft', 'get /v1/tasks/{id}/outputs/{outputId}', 'get /v1/users', 'get /v1/users/{id}'];
    const ANALYTICS = ['get /v1/feedback', 'get /v1/articles/{id}/feedback/summary'];
    for (const { method, path, operation } of operations.filter((o) => o.path.startsWith('/v1/') && !PUBLIC.includes(o.path))) {
      const op = `${method} ${path}`;
      const expected = ANALYTICS.includes(op)
        ? ['analytics:read']
        : path.startsWith('/v1/webhooks')
        ? ['webhooks:manage']
        : PUBLISH.includes(op)
          ? ['content:publish']
          : method === 'get' && !WRITE_READS.includes(op)
            ? ['content:read']
            : ['content:write'];
      expect({ op: `${method} ${path}`, scopes: operation['x-required-scopes'] }).toEqual({ op: `${method} ${path}`, scopes: expected });
    }
  });

  it('gives every operation either its required scopes or, for the public routes only, none', () => {
    for (const { method, path, operation } of operations) {
      const op = `${method} ${path}`;
      const scopes = operation['x-required-scopes'];
      if (PUBLIC.includes(path)) expect({ op, scopes }).toEqual({ op, scopes: [] });
      else expect({ op, scopes }).toEqual({ op, scopes: expect.arrayContaining([expect.any(String)]) });
    }
  });

  it('marks the public routes as public: x-required-scopes [] and no security requirement', () => {
    for (const path of PUBLIC) {
      const item = doc.paths[path]!;
      for (const operation of [item.get, item.post].filter((o) => o !== undefined)) {
        expect(operation['x-required-scopes']).toEqual([]);
        expect(operation.security ?? []).toEqual([]);
        for (const status of ['401', '403']) expect(operation.responses[status]).toBeUndefined();
        // Only the reader feedback route is rate limited (per IP).
        if (path.endsWith('/feedback')) expect(operation.responses['429']).toBeDefined();
        else expect(operation.responses['429']).toBeUndefined();
      }
    }
  });

  it('lists 401, 403, 429 and 500 on every scoped operation, 404 where the path has an ID', () => {
    for (const { method, path, operation } of operations.filter((o) => (o.operation['x-required-scopes'] ?? []).length > 0)) {
      const statuses = Object.keys(operation.responses);
      expect({ op: `${method} ${path}`, statuses }).toEqual({ op: `${method} ${path}`, statuses: expect.arrayContaining(['401', '403', '429', '500']) });
      if (path.includes('{id}')) expect({ op: `${method} ${path}`, statuses }).toEqual({ op: `${method} ${path}`, statuses: expect.arrayContaining(['404']) });
    }
  });

  it('lists 400 on every operation that takes a body or query parameters, and 413/415 where it takes a body', () => {
    const withInput = operations.filter((o) => o.operation.requestBody || (o.operation.parameters ?? []).some((p) => p.in === 'query'));
    // Lists take page_size/start_cursor; writes take bodies.
    expect(withInput.length).toBeGreaterThanOrEqual(10);
    for (const { method, path, operation } of withInput) {
      const statuses = Object.keys(operation.responses);
      expect({ op: `${method} ${path}`, statuses }).toEqual({ op: `${method} ${path}`, statuses: expect.arrayContaining(['400']) });
      if (operation.requestBody) {
        expect({ op: `${method} ${path}`, statuses }).toEqual({ op: `${method} ${path}`, statuses: expect.arrayContaining(['413', '415']) });
        expect(Object.keys(operation.requestBody.content ?? {})).toEqual(['application/json']);
      }
    }
  });

  it('documents the cursor query parameters of both lists', () => {
    for (const path of ['/v1/sections', '/v1/collections']) {
      const names = (doc.paths[path]!.get!.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      expect(names).toEqual(expect.arrayContaining(['page_size', 'start_cursor']));
    }
  });

  it('offers Idempotency-Key on every POST', () => {
    for (const { path, operation } of operations.filter((o) => o.method === 'post')) {
      const header = (operation.parameters ?? []).find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      expect({ path, header: header !== undefined }).toEqual({ path, header: true });
    }
  });

  it('describes errors with the ErrorResponse schema: error and code required, code one of the stable codes', () => {
    const schema = doc.components.schemas.ErrorResponse;
    expect(schema).toBeDefined();
    expect(schema!.required).toEqual(expect.arrayContaining(['error', 'code']));
    expect(Object.keys(schema!.properties ?? {}).sort()).toEqual(['code', 'details', 'docUrl', 'error', 'requestId']);
    expect(schema!.required).toEqual(expect.arrayContaining(['requestId', 'docUrl']));
    expect([...(schema!.properties!.code!.enum ?? [])].sort()).toEqual([...ERROR_CODES].sort());
    for (const { method, path, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400 || path === '/readyz') continue;
        expect({ op: `${method} ${path} ${status}`, schema: response.content?.['application/json']?.schema }).toEqual({
          op: `${method} ${path} ${status}`,
          schema: { $ref: '#/components/schemas/ErrorResponse' },
        });
      }
    }
  });

  it('resolves every $ref and gives every operation a unique operationId', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect({ ref, defined: ref in doc.components.schemas }).toEqual({ ref, defined: true });
    const ids = operations.map((o) => o.operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('serves a browsable HTML reference at /docs whose script and stylesheet load', async () => {
    const res = await t.http.get('/docs').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(/<html/i);
    expect(res.text).toContain('Help Center Content API');
    const assets = [...res.text.matchAll(/(?:href|src)="([^"]+\.(?:css|js))"/g)].map((m) => new URL(m[1]!, `${t.url}/docs`).pathname);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      const loaded = await t.http.get(asset);
      expect({ asset, status: loaded.status }).toEqual({ asset, status: 200 });
    }
  });
});
