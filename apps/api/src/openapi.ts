import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { type AppConfig, SECURITY_SCHEME } from '#core';
import { errorDescription } from './common/api-errors.decorator.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

const DESCRIPTION = `
HTTP JSON API of the help center: articles, collections, sections, translations, search, AI tasks, feedback and webhooks.

**Authentication.** Every \`/v1\` request carries \`Authorization: Bearer hck_…\`. Each operation lists the scope it
requires (\`x-required-scopes\`, and the scopes of its security requirement). \`content:write\` and \`content:publish\`
imply \`content:read\`; keys with null scopes (legacy) have full access.

**Errors.** Every error is \`{ "error": "<message>", "code": "<code>" }\` (validation errors add \`details\`).
Codes: see the \`ErrorResponse\` schema.

**Pagination.** Cursor lists take \`page_size\` (1-100, default 20) and \`start_cursor\`, and answer
\`{ results, has_more, next_cursor }\`. Cursors are opaque and signed: a changed or foreign cursor is 400 \`invalid_cursor\`.

**Rate limits.** Per API key: 600 requests per minute by default, \`POST /v1/articles\` 60 per hour. Responses carry
\`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\`, \`RateLimit-Policy\` and \`RateLimit\`; a 429 adds \`Retry-After\`.

**Idempotency.** Any POST accepts \`Idempotency-Key\`: the first successful response is replayed for 24 h with
\`Idempotent-Replayed: true\`; the same key with a different request is 422, while the first is running 409.
Failed requests store nothing, so a corrected retry may reuse the key.
`.trim();

interface Operation {
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: unknown;
  responses: Record<string, unknown>;
  'x-required-scopes'?: string[];
}

/**
 * Adds to every operation the error responses the platform can give it (auth, validation, rate limit, body
 * size and type, idempotency, faults) and the Idempotency-Key header on POST, so the document lists every
 * error of every route without each controller repeating them.
 */
export function completeOperations(document: OpenAPIObject): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation) continue;
      const scoped = (operation['x-required-scopes'] ?? []).length > 0;
      const statuses = new Set<number>([500]);
      if (!['/healthz', '/readyz'].includes(path)) statuses.add(503);
      if (scoped) [401, 403, 429].forEach((s) => statuses.add(s));
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
            schema: { type: 'string', maxLength: 255 },
          } as never,
        ];
      }
      for (const status of [...statuses].sort()) {
        operation.responses[status] ??= { description: errorDescription(status), content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } } };
      }
    }
  }
  return document;
}

/** Builds the OpenAPI 3.1 document and serves it at /v1/openapi.json, with a browsable reference at /docs. */
export function setupOpenApi(app: INestApplication, config: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Help Center Content API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .setOpenAPIVersion('3.1.0')
    .addServer(config.http.publicUrl)
    // bearerFormat set explicitly: addBearerAuth defaults it to "JWT", which these opaque keys are not.
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'hck_ API key', description: 'API key: hck_ followed by 40+ characters' },
      SECURITY_SCHEME,
    )
    .build();
  const document = completeOperations(
    SwaggerModule.createDocument(app, builder, {
      operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
      extraModels: [],
    }),
  );
  SwaggerModule.setup('docs', app, document, {
    useGlobalPrefix: false,
    jsonDocumentUrl: 'v1/openapi.json',
    raw: ['json'],
    customSiteTitle: 'Help Center Content API',
  });
  return document;
}
