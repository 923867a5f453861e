import { type ErrorCode } from '#core';
import { errorDocUrl } from '#gateway';

/**
 * The IDs the request examples use. Each stands for one resource of its type; a client (or the contract test,
 * which drives every operation through its example) puts the real ID of that resource in its place.
 */
export const EXAMPLE_IDS = {
  section: 'sect_01JD3Q7W6S1X0Y2Z3A4B5C6D7E',
  collection: 'col_01JD3Q7W6S1X0Y2Z3A4B5C6D7E',
  article: 'art_01JD3Q7W6S1X0Y2Z3A4B5C6D7E',
  revision: 'rev_01JD3Q7W6S1X0Y2Z3A4B5C6D7E',
  task: 'tsk_01JD3Q7W6S1X0Y2Z3A4B5C6D7E',
  taskOutput: 'tout_01JD3Q7W6S1X0Y2Z3A4B5C6D7E',
  feedback: 'fb_01JD3Q7W6S1X0Y2Z3A4B5C6D7E',
  user: 'hcusr_01JD3Q7W6S1X0Y2Z3A4B5C6D7E',
  webhook: 'whep_01JD3Q7W6S1X0Y2Z3A4B5C6D7E',
  delivery: 'whdl_01JD3Q7W6S1X0Y2Z3A4B5C6D7E',
  image: `${'5f'.repeat(32)}.png`,
} as const;

/** The webhook URL of the examples (the contract test puts its local receiver in its place). */
export const EXAMPLE_WEBHOOK_URL = 'https://example.com/hooks/help-center';
const EXAMPLE_LANGUAGE = 'fr';

/** The resource an `{id}` stands for, by the collection path it follows. */
const ID_BY_COLLECTION: Readonly<Record<string, string>> = {
  sections: EXAMPLE_IDS.section,
  collections: EXAMPLE_IDS.collection,
  articles: EXAMPLE_IDS.article,
  tasks: EXAMPLE_IDS.task,
  feedback: EXAMPLE_IDS.feedback,
  users: EXAMPLE_IDS.user,
  webhooks: EXAMPLE_IDS.webhook,
};

const ID_BY_PARAMETER: Readonly<Record<string, string>> = {
  revisionId: EXAMPLE_IDS.revision,
  outputId: EXAMPLE_IDS.taskOutput,
  deliveryId: EXAMPLE_IDS.delivery,
  language: EXAMPLE_LANGUAGE,
  locale: EXAMPLE_LANGUAGE,
  name: EXAMPLE_IDS.image,
};

/** The example value of path parameter `name` of `path`, or undefined when there is none. */
export function pathParameterExample(path: string, name: string): string | undefined {
  if (name !== 'id') return ID_BY_PARAMETER[name];
  const collection = /\/v1\/(?:public\/)?([a-z]+)\/\{id\}/.exec(path)?.[1];
  return collection === undefined ? undefined : ID_BY_COLLECTION[collection];
}

const ARTICLE_MARKDOWN = `If you forgot your password, reset it from the sign-in page.

:::callout{variant="warning"}
Reset links expire after **24 hours**.
:::

::::steps
:::step{title="Open the sign-in page"}
Choose *Forgot password* and enter your email address.
:::

:::step{title="Check your email"}
Follow the link we send you and choose a new password.
:::
::::
`;

export interface RequestExample {
  /** The JSON body. */
  readonly body?: Record<string, unknown>;
  /** Query parameters that make a valid request together (the others are left out). */
  readonly query?: Record<string, string>;
}

/** One valid request per operation (by operationId) beyond its path parameters: what the reference shows and the contract test sends. */
export const REQUEST_EXAMPLES: Readonly<Record<string, RequestExample>> = {
  Helpdesk_update: {
    body: {
      name: 'Acme Help Center',
      languages: ['en', 'fr', 'de'],
      logoUrl: 'https://cdn.example.com/acme-logo.svg',
      accentColor: '#0b5fff',
      footerLinks: [
        { label: 'Status', url: 'https://status.example.com' },
        { label: 'Contact us', url: 'mailto:support@example.com' },
      ],
    },
  },
  Sections_list: { query: { page_size: '20' } },
  Sections_create: { body: { name: 'Billing' } },
  Sections_update: { body: { name: 'Billing and invoices', position: 1 } },
  Sections_putTranslationOf: { body: { name: 'Facturation', status: 'published' } },
  Collections_list: { query: { section_id: EXAMPLE_IDS.section, page_size: '20' } },
  Collections_create: { body: { title: 'Getting started', subtitle: 'Your first steps with Acme', sectionId: EXAMPLE_IDS.section } },
  Collections_update: { body: { title: 'Getting started with Acme', subtitle: 'Set up your account in ten minutes' } },
  Collections_move: { body: { section_id: EXAMPLE_IDS.section, parent_collection_id: null } },
  Collections_putTranslationOf: { body: { title: 'Premiers pas', subtitle: 'Vos premiers pas avec Acme', status: 'published' } },
  Articles_create: {
    body: {
      title: 'Reset your password',
      sectionId: EXAMPLE_IDS.section,
      collectionId: EXAMPLE_IDS.collection,
      markdown: ARTICLE_MARKDOWN,
      keywords: 'password, sign in',
      metaDescription: 'How to reset a forgotten password.',
    },
  },
  Articles_list: { query: { status: 'all', format: 'markdown', page_size: '20' } },
  Articles_get: { query: { format: 'markdown' } },
  Articles_draft: { query: { format: 'markdown' } },
  Articles_update: { body: { title: 'Reset a forgotten password', markdown: `${ARTICLE_MARKDOWN}\nStill stuck? Contact support.\n` } },
  Articles_move: { body: { section_id: EXAMPLE_IDS.section, collection_id: null } },
  Articles_revisions: { query: { page_size: '20' } },
  Articles_revision: { query: { format: 'markdown' } },
  Articles_diff: { query: { against: '1' } },
  ArticleTranslations_search: { query: { query: 'reset password', page_size: '20' } },
  ArticleTranslations_missing: { query: { locales: 'fr,de' } },
  ArticleTranslations_put: {
    body: {
      title: 'Réinitialiser votre mot de passe',
      markdown: 'Si vous avez oublié votre mot de passe, réinitialisez-le depuis la page de connexion.\n\n:::callout{variant="warning"}\nLes liens expirent après **24 heures**.\n:::\n',
    },
  },
  Webhooks_create: { body: { url: EXAMPLE_WEBHOOK_URL, events: ['article.published', 'article.unpublished'], description: 'Search index sync' } },
  Webhooks_list: { query: { page_size: '20' } },
  Webhooks_update: { body: { events: ['article.published', 'article.unpublished', 'article.trashed'], description: 'Search index sync (with trash)' } },
  Webhooks_deliveries: { query: { status: 'success', page_size: '20' } },
  Tasks_create: { body: { instruction: 'Write an article about resetting a password', targetSectionId: EXAMPLE_IDS.section, autoApply: false } },
  Tasks_list: { query: { limit: '20', offset: '0' } },
  Feedback_list: { query: { article_id: EXAMPLE_IDS.article, resolved: 'false', page_size: '20' } },
  Feedback_resolve: { body: { resolved: true } },
  HelpCenterUsers_create: { body: { email: 'jane.doe@example.com', name: 'Jane Doe' } },
  HelpCenterUsers_list: { query: { page_size: '20' } },
  HelpCenterUsers_update: { body: { name: 'Jane Smith' } },
  Public_list: { query: { section_id: EXAMPLE_IDS.section, page_size: '20' } },
  Public_feedback: { body: { type: 'negative', feedback: 'The screenshots are out of date.', email: 'jane.doe@example.com' } },
};

const EXAMPLE_REQUEST_ID = '0b9d6f2e-3c1a-4f8e-9a57-2d4c6b8e1f03';

/** A plausible message (and details) per code, for the error examples. */
const MESSAGES: Readonly<Record<ErrorCode, { error: string; details?: Array<{ field: string; message: string }> }>> = {
  invalid_request: { error: 'title must be longer than or equal to 1 characters', details: [{ field: 'title', message: 'title must be longer than or equal to 1 characters' }] },
  invalid_cursor: { error: 'start_cursor is not a cursor issued by this list' },
  unauthorized: { error: 'The API key is invalid, expired or revoked' },
  insufficient_scope: { error: 'This API key lacks the required scope content:write' },
  not_found: { error: 'Article art_01JD3Q7W6S1X0Y2Z3A4B5C6D7E not found' },
  slug_taken: { error: 'The slug reset-your-password is already used by another article' },
  invalid_state: { error: 'Article art_01JD3Q7W6S1X0Y2Z3A4B5C6D7E is trashed; restore it to publish it' },
  idempotency_key_in_use: { error: 'A request with this Idempotency-Key is still being processed' },
  conflict: { error: 'A help center user with the email jane.doe@example.com already exists' },
  idempotency_key_reused: { error: 'This Idempotency-Key was used with a different request' },
  precondition_failed: { error: 'If-Match does not match the current ETag of article art_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' },
  payload_too_large: { error: 'The request body exceeds the 10 MiB limit' },
  unsupported_media_type: { error: 'Request bodies must be application/json' },
  rate_limited: { error: 'Rate limit exceeded; retry in 42 s' },
  internal_error: { error: 'An unexpected error occurred' },
  image_upload_failed: {
    error: 'Unable to upload one or more article images',
    details: [{ field: 'markdown', message: 'https://cdn.example.com/screenshot.png: the server answered HTTP 404' }],
  },
  service_unavailable: { error: 'A backing service is unavailable; retry shortly' },
};

/** An error body as the service sends it, for `code`; `scope` names the operation's scope in a 403. */
export function errorExample(code: ErrorCode, publicUrl: string, scope?: string): Record<string, unknown> {
  const { error, details } = MESSAGES[code];
  return {
    error: code === 'insufficient_scope' && scope ? `This API key lacks the required scope ${scope}` : error,
    code,
    ...(details ? { details } : {}),
    requestId: EXAMPLE_REQUEST_ID,
    docUrl: errorDocUrl(publicUrl, code),
  };
}
