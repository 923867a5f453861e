import { EVENT_TYPES, type EventType } from '#core';

/** The resource each event carries as `data` (as the API returns it), and when it is sent. */
const EVENTS: Readonly<Record<EventType, { schema: string; when: string }>> = {
  'article.created': { schema: 'ArticleResponse', when: 'An article was created (`POST /v1/articles`, or a task output applied as a new draft article).' },
  'article.updated': { schema: 'ArticleResponse', when: 'An article, its open draft or one of its translations changed (`PATCH`, a discarded draft, a translation written or published, a task output applied to it).' },
  'article.published': { schema: 'ArticleResponse', when: 'An article was published (`POST /v1/articles/{id}/publish`, or `publish: true` on create or update).' },
  'article.unpublished': { schema: 'ArticleResponse', when: 'A published article was taken offline.' },
  'article.trashed': { schema: 'ArticleResponse', when: 'An article was trashed (`DELETE /v1/articles/{id}`).' },
  'article.restored': { schema: 'ArticleResponse', when: 'A trashed article was restored.' },
  'article.moved': { schema: 'ArticleResponse', when: 'An article moved to another section or collection.' },
  'collection.created': { schema: 'CollectionResponse', when: 'A collection was created.' },
  'collection.updated': { schema: 'CollectionResponse', when: 'A collection, its place or one of its translations changed (a move sends one per nested collection carried along).' },
  'collection.deleted': { schema: 'CollectionResponse', when: 'A collection was deleted; `data` is the collection as it was.' },
  'section.created': { schema: 'SectionResponse', when: 'A section was created.' },
  'section.updated': { schema: 'SectionResponse', when: 'A section or one of its translations changed (also the previous default section when another one becomes the default).' },
  'section.deleted': { schema: 'SectionResponse', when: 'A section was deleted; `data` is the section as it was.' },
  'feedback.created': { schema: 'FeedbackResponse', when: 'A reader left feedback on an article.' },
  'feedback.updated': { schema: 'FeedbackResponse', when: 'Feedback was resolved or unresolved.' },
  'task.completed': { schema: 'TaskResponse', when: 'An AI task completed; `data` is the whole task with its outputs.' },
  'task.failed': { schema: 'TaskResponse', when: 'An AI task failed; `error` says why.' },
  'webhook.test': { schema: 'WebhookEndpointResponse', when: 'Sent by `POST /v1/webhooks/{id}/test` to that endpoint only; `data` is the endpoint.' },
};

/** `article.published` → `ArticlePublishedEvent` */
function eventSchemaName(type: EventType): string {
  return `${type
    .split(/[._]/)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('')}Event`;
}

const HEADERS = [
  {
    name: 'webhook-id',
    description: 'The delivery ID (`whdl_…`), the same on every retry of the delivery: use it to ignore duplicates.',
    example: 'whdl_01JD3Q7W6S1X0Y2Z3A4B5C6D7E',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    description: 'Unix seconds of this attempt; refuse requests too far from your clock (Standard Webhooks suggests 5 minutes).',
    example: '1732269600',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` signatures of `<webhook-id>.<webhook-timestamp>.<body>` under the base64 key after `whsec_`: one per valid secret (two for 24 h after a rotation). Accept the request when any matches.',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    schema: { type: 'string' },
  },
  { name: 'user-agent', description: 'Always `HelpCenter-Webhooks/1.0`.', example: 'HelpCenter-Webhooks/1.0', schema: { type: 'string' } },
] as const;

/** Component schemas of the event envelopes, one per event type: `{ type, timestamp, data }` exactly as signed and sent. */
export function webhookEventSchemas(): Record<string, object> {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      eventSchemaName(type),
      {
        type: 'object',
        description: `The body of a \`${type}\` delivery, as signed.`,
        required: ['type', 'timestamp', 'data'],
        additionalProperties: false,
        properties: {
          type: { type: 'string', const: type },
          timestamp: {
            type: 'string',
            format: 'date-time',
            description: 'When the change happened (the same on every retry; `webhook-timestamp` is the time of the attempt)',
          },
          data: { $ref: `#/components/schemas/${EVENTS[type].schema}` },
        },
      },
    ]),
  );
}

/** The OpenAPI 3.1 `webhooks` object: what the service POSTs to a subscribed endpoint, per event type. */
export function webhooksSection(): Record<string, object> {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(/\./g, '_')}`,
          summary: `Event ${type}`,
          description: `${EVENTS[type].when} Sent to every enabled endpoint subscribed to \`${type}\` or \`*\`${type === 'webhook.test' ? ' (here: only the endpoint tested)' : ''}, signed with the Standard Webhooks scheme.`,
          tags: ['Webhook events'],
          security: [],
          parameters: HEADERS.map((header) => ({ in: 'header', required: true, ...header })),
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${eventSchemaName(type)}` } } },
          },
          responses: {
            '2XX': { description: 'Any 2xx within 15 s (WEBHOOK_TIMEOUT_MS): delivered. The body is ignored.' },
            '410': { description: 'Gone: the endpoint is disabled at once and its pending deliveries fail.' },
            default: {
              description:
                'Any other status, a redirect, a timeout or a network error fails the attempt: it is retried on the schedule (a longer `Retry-After` on 429 or 503 is honoured), and sustained failures disable the endpoint.',
            },
          },
        },
      },
    ]),
  );
}
