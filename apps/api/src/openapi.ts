import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { type AppConfig, type ErrorCode } from '#core';
import { ERROR_CATALOG, ERROR_DOCS_PATH, HTTP_STATUS_BY_CODE, SECURITY_SCHEME } from '#gateway';
import { ERROR_CODES_EXTENSION } from './common/api-errors.decorator.js';
import { apiDescription } from './openapi/description.js';
import { errorExample, pathParameterExample, REQUEST_EXAMPLES } from './openapi/examples.js';
import { webhookEventSchemas, webhooksSection } from './openapi/webhooks.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** The tags of the operations, in the order the reference shows them. */
const TAGS: ReadonlyArray<{ name: string; description: string }> = [
  { name: 'Helpdesk', description: 'The help center itself: its name, default language and enabled languages, and the branding of its public pages (logo, accent colour, footer links).' },
  { name: 'Sections', description: 'Top-level groups of content, ordered by position; there is always one default section.' },
  { name: 'Collections', description: 'Groups of articles inside a section, nestable.' },
  { name: 'Articles', description: 'Articles with drafts, revisions and diffs, publishing, translations and search. Bodies use the content format described above.' },
  { name: 'Public', description: 'What a public help center front end needs, without a key: published articles and reader feedback.' },
  { name: 'Feedback', description: 'Reader feedback on articles: listing, resolving, per-article summaries.' },
  { name: 'Help center users', description: 'Readers known by email; feedback is matched to them.' },
  { name: 'Tasks', description: 'AI tasks that propose new or updated content as reviewable outputs.' },
  { name: 'Webhooks', description: 'Endpoints that receive signed events, and their delivery records.' },
  { name: 'Webhook events', description: 'What the service POSTs to webhook endpoints (the `webhooks` section): one entry per event type.' },
  { name: 'Images', description: 'Images stored from article bodies, served to readers without a key.' },
  { name: 'Health', description: 'Liveness and readiness probes, outside /v1, without a key.' },
];

const REF = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Response headers, declared once and referenced by the responses that carry them. */
const HEADERS: Record<string, object> = {
  XRequestId: {
    description: 'The request ID: the incoming X-Request-Id when it is 1-128 characters of A-Z a-z 0-9 . _ : -, else a new UUID. Error bodies repeat it as requestId.',
    required: true,
    schema: { type: 'string' },
  },
  XRateLimitLimit: { description: 'Requests allowed in the current window', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } },
  XRateLimitRemaining: { description: 'Requests left in the current window', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } },
  XRateLimitReset: { description: 'When the window resets (Unix seconds)', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } },
  RateLimitPolicy: { description: 'The policy (IETF RateLimit fields): quota q per window w seconds, e.g. `"default";q=600;w=60`', required: true, schema: { type: 'string' } },
  RateLimit: { description: 'What is left (IETF RateLimit fields): r requests for t seconds, e.g. `"default";r=599;t=42`', required: true, schema: { type: 'string' } },
  RetryAfter: { description: 'Seconds to wait before retrying', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } },
  IdempotentReplayed: { description: 'Present (`true`) when the response is the stored result of an earlier request with the same Idempotency-Key', required: false, schema: { type: 'string', enum: ['true'] } },
  ETag: { description: 'Entity tag of the current state; send it as If-Match to update only that state', required: true, schema: { type: 'string' } },
  WWWAuthenticate: { description: '`Bearer realm="help-center"`, plus `error="invalid_token"` when a key was sent', required: true, schema: { type: 'string' } },
};

const RATE_LIMIT_HEADERS = { 'X-RateLimit-Limit': REF('XRateLimitLimit'), 'X-RateLimit-Remaining': REF('XRateLimitRemaining'), 'X-RateLimit-Reset': REF('XRateLimitReset'), 'RateLimit-Policy': REF('RateLimitPolicy'), RateLimit: REF('RateLimit') };

const SUCCESS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 304: 'Not modified' };

/** What a success response holds, by its schema; the decorators' own descriptions (Created, Replaced…) come first. */
const RESPONSE_TEXT: Readonly<Record<string, string>> = {
  ArticleDraftResponse: 'The open draft, its content in the format asked for',
  ArticlePage: 'A cursor page of articles',
  ArticleResponse: 'The article',
  ArticleStatusResponse: 'The article ID and its status after the change',
  ArticleTranslationList: "The article's translations (one page holds them all)",
  ArticleTranslationResponse: 'The translation',
  ArticleWithDraftResponse: 'The article, with the ID of its open draft (`draft_id`, null when it has none)',
  CollectionPage: 'A cursor page of collections',
  CollectionResponse: 'The collection with its translations',
  CollectionTranslationResponse: 'The translation',
  DeletedResponse: 'Deleted',
  FeedbackPage: 'A cursor page of feedback entries',
  FeedbackSummaryResponse: 'Counts of positive, negative and unresolved entries',
  HelpCenterUserPage: 'A cursor page of help center users',
  HelpCenterUserResponse: 'The help center user',
  HelpdeskResponse: 'The helpdesk',
  LivenessResponse: 'The process is up',
  MissingTranslationsResponse: 'Per locale, the IDs of published articles without a translation in it',
  PublicFeedbackResponse: 'The receipt of the feedback entry',
  ReadinessResponse: 'The database and the job queue answer',
  ResolvedResponse: 'The feedback entry ID and its resolved flag',
  RevisionDiffResponse: 'The unified diff between the two revisions',
  RevisionPage: 'A cursor page of revisions, newest first',
  RevisionResponse: 'The revision with its content',
  RotatedSecretResponse: 'The endpoint with its new secret (shown only here) and when the previous one stops signing',
  SearchPage: 'A cursor page of search results, best first',
  SectionPage: 'A cursor page of sections',
  SectionResponse: 'The section with its translations',
  SectionTranslationResponse: 'The translation',
  TaskOutputDetailResponse: 'The output with its proposed Markdown and diff',
  TaskOutputResponse: 'The output after the change',
  TaskPage: 'An offset page of tasks (id, title, status), newest first',
  TaskResponse: 'The task with its outputs',
  TestDeliveryResponse: 'The ID of the queued test delivery',
  WebhookDeliveryDetailResponse: 'The delivery with every attempt',
  WebhookDeliveryPage: 'A cursor page of deliveries, newest first',
  WebhookDeliveryResponse: 'The delivery, pending again',
  WebhookEndpointDetailResponse: 'The endpoint with its 20 most recent deliveries',
  WebhookEndpointPage: 'A cursor page of webhook endpoints (no secrets)',
  WebhookEndpointResponse: 'The endpoint',
  WebhookEndpointWithSecretResponse: 'The endpoint with its signing secret (shown only here and on rotation)',
};

function successText(code: number, response: ResponseObject): string {
  const schema = response.content?.['application/json']?.schema as { $ref?: string; oneOf?: unknown[] } | undefined;
  const name = schema?.$ref?.split('/').pop();
  if (name && RESPONSE_TEXT[name]) return RESPONSE_TEXT[name];
  if (schema?.oneOf) return 'One of the shapes below, as the operation describes';
  return SUCCESS_TEXT[code] ?? `HTTP ${code}`;
}

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  example?: unknown;
  schema?: { type?: string | string[] };
}

interface ResponseObject {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: unknown; example?: unknown; examples?: Record<string, { summary?: string; value: unknown }> }>;
}

interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { example?: unknown }> };
  responses: Record<string, ResponseObject>;
  security?: unknown[];
  'x-required-scopes'?: string[];
  'x-rate-limit-policy'?: string;
  [ERROR_CODES_EXTENSION]?: ErrorCode[];
}

/** The codes an error status of this operation can carry. */
function codesFor(status: number, method: string, operation: Operation): ErrorCode[] {
  const own = (operation[ERROR_CODES_EXTENSION] ?? []).filter((code) => HTTP_STATUS_BY_CODE[code] === status);
  if (status === 400) {
    const paged = (operation.parameters ?? []).some((p) => p.in === 'query' && p.name === 'start_cursor');
    return ['invalid_request', ...(paged ? (['invalid_cursor'] as const) : [])];
  }
  if (status === 409) {
    const codes: ErrorCode[] = [...own, ...(method === 'post' ? (['idempotency_key_in_use'] as const) : [])];
    return codes.length > 0 ? codes : ['conflict'];
  }
  return own.length > 0 ? own : ERROR_CATALOG.filter((entry) => entry.status === status).map((entry) => entry.code);
}

/**
 * An error response: what each code means, and one example per code with its real status (kept once under
 * components.examples, by code; a 403's names the operation's scope).
 */
function errorResponse(status: number, method: string, operation: Operation, publicUrl: string, examples: Record<string, object>): ResponseObject {
  const codes = codesFor(status, method, operation);
  const titles = new Map(ERROR_CATALOG.map((entry) => [entry.code, entry.title]));
  const scope = operation['x-required-scopes']?.[0];
  const refs: Record<string, { $ref: string }> = {};
  for (const code of codes) {
    const name = code === 'insufficient_scope' && scope ? `${code}.${scope.replace(':', '-')}` : code;
    examples[name] ??= { summary: `${code} (${status})`, value: errorExample(code, publicUrl, scope) };
    refs[code] = { $ref: `#/components/examples/${name}` };
  }
  return {
    description: codes.map((code) => `\`${code}\`: ${titles.get(code)!}`).join('; '),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' }, examples: refs as never } },
  };
}

/**
 * Completes every operation with what the platform adds to it: the error responses it can give (auth,
 * validation, rate limit, body size and type, idempotency, faults) with their codes and examples, the
 * Idempotency-Key header on POST, the response headers (X-Request-Id everywhere, rate limits, Retry-After,
 * Idempotent-Replayed, WWW-Authenticate), a request example, `security: []` on public routes, and the
 * `webhooks` section.
 */
function completeOperations(document: OpenAPIObject, publicUrl: string): OpenAPIObject {
  const examples: Record<string, object> = {};
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation) continue;
      const scoped = (operation['x-required-scopes'] ?? []).length > 0;
      const limited = scoped || operation['x-rate-limit-policy'] !== undefined;
      if (!scoped) operation.security = [];
      const statuses = new Set<number>([500]);
      if (!['/healthz', '/readyz'].includes(path)) statuses.add(503);
      if (scoped) [401, 403].forEach((s) => statuses.add(s));
      if (limited) statuses.add(429);
      if (path.includes('{')) statuses.add(404);
      if (operation.requestBody || (operation.parameters ?? []).some((p) => p.in === 'query')) statuses.add(400);
      if (operation.requestBody) [413, 415].forEach((s) => statuses.add(s));
      if (method === 'post') {
        [400, 409, 422].forEach((s) => statuses.add(s));
        operation.parameters = [
          ...(operation.parameters ?? []),
          {
            in: 'header',
            name: 'Idempotency-Key',
            required: false,
            description: 'Makes the request safe to retry: the first successful response is replayed for 24 h.',
            schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
            example: '5c0e8f4c-9d1b-4c55-a0a4-3f2b7c1d9e61',
          } as Parameter,
        ];
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) >= 400 && (response.content?.['application/json']?.schema as { $ref?: string } | undefined)?.$ref === '#/components/schemas/ErrorResponse') {
          statuses.add(Number(status));
        }
      }
      for (const status of [...statuses].sort()) operation.responses[status] = errorResponse(status, method, operation, publicUrl, examples);
      delete operation[ERROR_CODES_EXTENSION];

      for (const [status, response] of Object.entries(operation.responses)) {
        const code = Number(status);
        if (!response.description) response.description = successText(code, response);
        const headers: Record<string, unknown> = { 'X-Request-Id': REF('XRequestId') };
        if (limited && (code < 300 || code === 429)) Object.assign(headers, RATE_LIMIT_HEADERS);
        if (code === 429) headers['Retry-After'] = REF('RetryAfter');
        if (code === 401) headers['WWW-Authenticate'] = REF('WWWAuthenticate');
        if (method === 'post' && code < 300) headers['Idempotent-Replayed'] = REF('IdempotentReplayed');
        response.headers = { ...headers, ...response.headers };
      }

      const example = REQUEST_EXAMPLES[operation.operationId ?? ''];
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'path') parameter.example ??= pathParameterExample(path, parameter.name);
        if (parameter.in === 'query' && example?.query?.[parameter.name] !== undefined) {
          const value = example.query[parameter.name]!;
          const type = parameter.schema?.type;
          parameter.example = type === 'number' || type === 'integer' ? Number(value) : value;
        }
      }
      const body = operation.requestBody?.content?.['application/json'];
      if (body && example?.body) body.example = example.body;
    }
  }
  const components = document.components as Record<string, Record<string, object>>;
  components.headers = { ...components.headers, ...HEADERS };
  components.examples = { ...components.examples, ...examples };
  components.schemas = { ...components.schemas, ...webhookEventSchemas() };
  (document as OpenAPIObject & { webhooks?: object }).webhooks = webhooksSection();
  return document;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The error reference: one entry per code (`#<code>`), the target of every error body's docUrl. */
function errorReferenceHtml(): string {
  const rows = ERROR_CATALOG.map(
    (entry) =>
      `<tr id="${entry.code}"><td><a href="#${entry.code}"><code>${entry.code}</code></a></td><td>${entry.status}</td><td>${escapeHtml(entry.meaning).replace(/`([^`]+)`/g, '<code>$1</code>')}</td></tr>`,
  ).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Errors · Help Center Content API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.5rem;text-align:left;vertical-align:top}tr:target{background:#fff7d6}code{font-size:.9em}</style>
</head><body>
<h1>Errors</h1>
<p>Every error is <code>{ "error", "code", "requestId", "docUrl" }</code> (validation and image errors add <code>details</code>). Branch on <code>code</code>; <code>requestId</code> is the response's <code>X-Request-Id</code>; <code>docUrl</code> links to the code's row below. The full reference is at <a href="../docs">/docs</a>.</p>
<table><thead><tr><th>Code</th><th>Status</th><th>Meaning</th></tr></thead><tbody>
${rows}
</tbody></table>
</body></html>
`;
}

/** Builds the OpenAPI 3.1 document and serves it at /v1/openapi.json, with a browsable reference at /docs and the error reference at /docs/errors. */
/** The document with the request's own origin as its first server, when it differs from PUBLIC_URL's. */
function withRequestOrigin(document: OpenAPIObject, request: Request, publicUrl: string): OpenAPIObject {
  const host = request.headers.host;
  if (!host || !/^[A-Za-z0-9.:[\]-]+$/.test(host)) return document;
  const origin = `${request.protocol}://${host}`;
  if (origin === new URL(publicUrl).origin) return document;
  return { ...document, servers: [{ url: origin, description: 'Where this reference was opened' }, ...(document.servers ?? [])] };
}

export function setupOpenApi(app: INestApplication, config: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Help Center Content API')
    .setDescription(apiDescription(config.http.publicUrl))
    .setVersion('1.0.0')
    .setOpenAPIVersion('3.1.0')
    .addServer(config.http.publicUrl, 'This deployment (PUBLIC_URL)')
    // bearerFormat set explicitly: addBearerAuth defaults it to "JWT", which these opaque keys are not.
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'hck_ API key', description: 'API key: hck_ followed by 40+ characters' },
      SECURITY_SCHEME,
    );
  for (const tag of TAGS) builder.addTag(tag.name, tag.description);
  const document = completeOperations(
    SwaggerModule.createDocument(app, builder.build(), {
      operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
      extraModels: [],
    }),
    config.http.publicUrl,
  );
  const errorsPage = errorReferenceHtml();
  app.getHttpAdapter().get(ERROR_DOCS_PATH, (_request: Request, response: Response) => {
    response.type('html').send(errorsPage);
  });
  SwaggerModule.setup('docs', app, document, {
    useGlobalPrefix: false,
    jsonDocumentUrl: 'v1/openapi.json',
    raw: ['json'],
    customSiteTitle: 'Help Center Content API',
    // "Try it out" calls the first server: the origin the reference was opened at, when it is not PUBLIC_URL's
    // (127.0.0.1 rather than localhost, a port-forward), so the calls are same-origin and need no CORS.
    patchDocumentOnRequest: <TRequest>(request: TRequest, _response: unknown, served: OpenAPIObject) => withRequestOrigin(served, request as Request, config.http.publicUrl),
  });
  return document;
}
