import { EVENT_TYPES } from '#core';
import { ERROR_CATALOG, ERROR_DOCS_PATH } from '#gateway';
import { CALLOUT_VARIANTS, contentSchema } from '#content';

/** A Markdown table cell: pipes escaped, line breaks flattened. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

/** The Markdown of an article body using every custom node; its JSON is CONTENT_FORMAT_JSON_EXAMPLE (checked by a unit test). */
export const CONTENT_FORMAT_MARKDOWN_EXAMPLE = `# Reset your password

:::callout{variant="warning"}
Reset links expire after **24 hours**.
:::

::::steps
:::step{title="Open the sign-in page"}
Choose *Forgot password*.
:::

:::step{title="Check your email"}
Follow the link we send you.
:::
::::

::::cards
:::card{title="Billing" href="/articles/billing"}
Invoices and payment methods.
:::
::::
`;

const text = (value: string, marks?: string[]) => ({ type: 'text', ...(marks ? { marks: marks.map((type) => ({ type })) } : {}), text: value });
const paragraph = (...content: object[]) => ({ type: 'paragraph', content });

/** CONTENT_FORMAT_MARKDOWN_EXAMPLE as the stored ProseMirror JSON (`format=json`, or `content` in a write). */
export const CONTENT_FORMAT_JSON_EXAMPLE = {
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 1 }, content: [text('Reset your password')] },
    { type: 'callout', attrs: { variant: 'warning' }, content: [paragraph(text('Reset links expire after '), text('24 hours', ['strong']), text('.'))] },
    {
      type: 'steps',
      content: [
        { type: 'step', attrs: { title: 'Open the sign-in page' }, content: [paragraph(text('Choose '), text('Forgot password', ['em']), text('.'))] },
        { type: 'step', attrs: { title: 'Check your email' }, content: [paragraph(text('Follow the link we send you.'))] },
      ],
    },
    { type: 'cards', content: [{ type: 'card', attrs: { title: 'Billing', href: '/articles/billing' }, content: [paragraph(text('Invoices and payment methods.'))] }] },
  ],
};

interface NodeSpecLike {
  content?: string;
  group?: string;
  inline?: boolean;
  attrs?: Record<string, { default?: unknown }>;
}

function attrsOf(spec: NodeSpecLike): string {
  const attrs = Object.entries(spec.attrs ?? {});
  if (attrs.length === 0) return '—';
  return attrs.map(([name, attr]) => ('default' in attr ? `\`${name}\` (default \`${JSON.stringify(attr.default)}\`)` : `\`${name}\` (required)`)).join(', ');
}

/** The node and mark types of the stored JSON, read from the schema the service validates bodies with. */
function nodeTable(): string {
  const rows: string[] = ['| Node | Content | Attributes |', '|---|---|---|'];
  contentSchema.spec.nodes.forEach((name, spec: NodeSpecLike) => {
    const content = spec.content ?? (spec.inline ? '(inline leaf)' : '(leaf)');
    rows.push(`| \`${name}\` | ${cell(content === '' ? '(leaf)' : `\`${content}\``)} | ${cell(attrsOf(spec))} |`);
  });
  const marks: string[] = [];
  contentSchema.spec.marks.forEach((name, spec: NodeSpecLike) => marks.push(`\`${name}\`${spec.attrs ? ` (${attrsOf(spec)})` : ''}`));
  return `${rows.join('\n')}\n\nMarks: ${marks.join(', ')}.`;
}

function errorTable(): string {
  const rows = ERROR_CATALOG.map((entry) => `| \`${entry.code}\` | ${entry.status} | ${cell(entry.meaning)} |`);
  return ['| Code | Status | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** The reference text of the document (info.description): conventions, errors, webhooks and the content format. */
export function apiDescription(publicUrl: string): string {
  return `
HTTP JSON API of the help center: articles, collections, sections, translations, search, AI tasks, feedback and webhooks.

## Public help center

The same service serves the help center readers use at \`${publicUrl}/\`: server-rendered HTML pages of live content only
(home, sections, collections, search, \`sitemap.xml\`, \`robots.txt\`, an Atom \`feed.xml\`, and each article at its
\`url\`, \`${publicUrl}/articles/{slug}\`), without a key, in every enabled language (the default one unprefixed, others
under their code: \`/fr/articles/{slug}\`), with the helpdesk's branding (\`logoUrl\`, \`accentColor\`, \`footerLinks\` of
\`PATCH /v1/helpdesk\`). Its pages are not operations of this document. Their feedback form posts to
\`POST /v1/public/articles/{id}/feedback\` (without JavaScript, to \`/articles/{slug}/feedback\`) under the same per-IP budget.

## Authentication

Every \`/v1\` request (except \`/v1/public/…\`) carries \`Authorization: Bearer hck_…\`. Each operation lists the scope it
requires (\`x-required-scopes\`, and the scopes of its security requirement: role names, as OpenAPI 3.1 allows for
non-OAuth schemes). \`content:write\` and \`content:publish\` imply \`content:read\`; keys with null scopes (legacy) have
full access. Keys are created and revoked by signed-in admins in the developer settings (\`${publicUrl}/settings\`,
server-rendered pages, not operations of this document) or with \`npm run cli -- api-keys\`; a key may carry an expiry,
after which, like a revoked key, it gets 401 \`unauthorized\`.

## Request IDs

Every response carries \`X-Request-Id\`: the incoming one when it is 1-128 characters of \`A-Z a-z 0-9 . _ : -\`, a new
UUID otherwise. Error bodies repeat it as \`requestId\`. Quote it when reporting a problem: every log line of the
request carries it.

## Errors

Every error is \`{ "error": "<message>", "code": "<code>", "requestId": "<X-Request-Id>", "docUrl": "<link>" }\`;
validation and image errors add \`details: [{ field, message }]\`. Branch on \`code\` (stable; never renamed), not on the
message. \`docUrl\` is \`${publicUrl}${ERROR_DOCS_PATH}#<code>\`: the code's entry in the error reference served by this
deployment (its \`PUBLIC_URL\`), which holds the table below.

${errorTable()}

## Text

Every string of a JSON body (at any depth, property names included), every query value and every path segment must
be text PostgreSQL can store: a NUL character (U+0000) or an unpaired UTF-16 surrogate (\`"\\ud800"\` without its other
half) is 400 \`invalid_request\` before anything else runs, with one \`details\` entry per field naming it
(\`content.content[0].content[1].text\`, \`events[1]\`, \`query\`, \`id\`). Everything else is stored as sent, emoji
(surrogate pairs), U+FFFD and other control characters included. An ID of another resource in a body (\`sectionId\`,
\`targetArticleId\`, …) is never an empty string (400).

## Pagination

Cursor lists take \`page_size\` (1-100, default 20) and \`start_cursor\`, and answer
\`{ results, has_more, next_cursor }\`. Cursors are opaque and signed: a changed or foreign cursor is 400 \`invalid_cursor\`.
Offset lists (\`GET /v1/tasks\`, and \`GET /v1/articles\` with \`limit\` or \`offset\`) take \`limit\` (1-100, default 20)
and \`offset\` (0 to 9007199254740991, 2^53 - 1), and answer \`{ items, limit, offset, total }\`.

## Rate limits

Per API key: 600 requests per minute by default, \`POST /v1/articles\` 60 per hour; public feedback 10 per minute per
client IP. Responses of limited operations carry \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\`
(Unix seconds), \`RateLimit-Policy\` and \`RateLimit\`; a 429 adds \`Retry-After\` (seconds).

## Idempotency

Any POST accepts \`Idempotency-Key\`: the first successful response is replayed for 24 h with
\`Idempotent-Replayed: true\`; the same key with a different request is 422, while the first is running 409.
Failed requests store nothing, so a corrected retry may reuse the key.

## Conditional requests

\`GET\`, \`POST\` and \`PATCH\` of an article answer its \`ETag\`; \`PATCH\` with \`If-Match\` is 412 \`precondition_failed\` when
the article changed since.

## Webhooks

Endpoints (\`/v1/webhooks\`) subscribe to event types or \`*\`. Every event is POSTed as JSON
\`{ "type", "timestamp", "data" }\`, where \`data\` is the resource as the API returns it (articles as with
\`format=html\`; for deletions, as it was before). The \`webhooks\` section of this document lists every event type
(${EVENT_TYPES.map((type) => `\`${type}\``).join(', ')}) with its payload.

Requests are signed with the [Standard Webhooks](https://www.standardwebhooks.com/) scheme, so any Standard Webhooks
library verifies them with the endpoint's \`whsec_…\` secret: \`webhook-id\` (the delivery ID, the same on every retry:
use it to drop duplicates), \`webhook-timestamp\` (Unix seconds of the attempt: refuse old ones) and
\`webhook-signature\` (\`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">\`, space-separated, two
of them for 24 h after a secret rotation). Any 2xx within 15 s is success; anything else (redirects included) is
retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, honouring a longer \`Retry-After\` on 429 and 503. After
10 consecutive failures and 5 days without a success, or at once on \`410 Gone\`, the endpoint is disabled.
An endpoint says why it is disabled: \`disabledReason\` (\`manual\`, \`gone\` or \`sustained_failures\`) and
\`disabledMessage\`, one sentence for people.

## Content format

Article bodies are stored as ProseMirror JSON in the service's schema. Writes take either \`content\` (that JSON) or
\`markdown\` (CommonMark with GFM tables and strikethrough; raw HTML is never passed through), never both; reads
return \`contentHtml\`, \`contentMarkdown\` or \`contentJson\` (\`format=html|markdown|json\`). Every node round-trips
through Markdown.

**Custom blocks** are Markdown container directives: a line of colons and a name with \`{key="value"}\` attributes
opens the block, a line of the same colons closes it, and a block holding blocks has one colon more than its items:

- \`:::callout{variant="…"}\` … \`:::\`: a callout; \`variant\` is ${CALLOUT_VARIANTS.map((v) => `\`${v}\``).join(', ')} (default \`info\`).
- \`::::steps\` … \`::::\` holding \`:::step{title="…"}\` … \`:::\` items: numbered steps.
- \`::::cards\` … \`::::\` holding \`:::card{title="…" href="…"}\` … \`:::\` items: link cards (\`href\` optional).

\`\`\`markdown
${CONTENT_FORMAT_MARKDOWN_EXAMPLE}\`\`\`

is this JSON:

\`\`\`json
${JSON.stringify(CONTENT_FORMAT_JSON_EXAMPLE)}
\`\`\`

and renders as \`<div class="callout callout-warning">\`, \`<ol class="steps">\` of \`<li class="step">\` (title in
\`<h3 class="step-title">\`, body in \`<div class="step-content">\`), and \`<div class="cards">\` of \`<a class="card">\`
(\`<div class="card">\` without \`href\`; \`<h3 class="card-title">\`, \`<div class="card-content">\`).

**JSON node types** (content expressions as in ProseMirror: \`block+\` is one or more block nodes, \`inline*\` any
number of text, image and hard_break nodes):

${nodeTable()}

Image \`src\` must be an http(s) URL, a \`data:image/…;base64,…\` URL or a stored image path; the service stores the
images and rewrites \`src\` to \`/user-images/<sha256>.<ext>\` (see \`image_upload_failed\`). Links keep only http(s),
mailto and relative URLs.
`.trim();
}
