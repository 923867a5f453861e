import { ERROR_CODES, type ErrorCode } from '#core';
import { type ErrorBody, HTTP_STATUS_BY_CODE } from './error-response.js';

/** What each error code means and what a client should do about it. Typed as a full Record: a new code needs its entry. */
const MEANINGS: Readonly<Record<ErrorCode, string>> = {
  invalid_request:
    'The request is malformed or fails validation: invalid JSON, a body that is not an object, unknown or mistyped fields, mutually exclusive fields, a bad query value, a malformed base64 image. `details` lists each field and what is wrong with it. Fix the request; retrying it unchanged fails again.',
  invalid_cursor: '`start_cursor` was not issued by this list (changed, from another list or another query, or garbage). Start again from the first page.',
  unauthorized:
    'No API key, a malformed one, or an unknown or revoked one. Send `Authorization: Bearer hck_…`. The response carries `WWW-Authenticate: Bearer realm="help-center"`.',
  insufficient_scope: 'The API key lacks the scope the operation needs; the message names it. Use a key with that scope.',
  not_found: 'No such resource, or one this key may not see (a draft for a key without content:write), or no such route.',
  slug_taken: 'Another article already uses this slug. Choose another `slug`.',
  invalid_state:
    'The resource is not in a state that allows the operation: editing or publishing a trashed article, unpublishing one that is not published, restoring one that is not trashed, deleting the default section or a section or collection that still holds content, cancelling a finished task, applying an output that is not proposed, testing a disabled webhook endpoint, retrying a pending delivery, sending to or changing a webhook endpoint whose stored signing secret does not open with the configured encryption keys.',
  idempotency_key_in_use: 'A request with this `Idempotency-Key` is still running. Wait for it, then retry: the retry replays its result.',
  conflict: 'The change clashes with other data: a collection `shortId` or a help center user email that is already taken.',
  idempotency_key_reused: 'This `Idempotency-Key` was used within 24 hours for a different request (method, path or body). Use a new key for a new request.',
  precondition_failed: '`If-Match` does not match the current `ETag`: the article changed since it was read. Read it again and reapply the change.',
  payload_too_large: 'The request body is over 10 MiB.',
  unsupported_media_type: 'The request body is not `application/json` (UTF-8).',
  rate_limited:
    'The key (or, for public feedback, the client IP) used up its budget for the current window. Wait `Retry-After` seconds; `X-RateLimit-*` and `RateLimit` tell the budget and what is left.',
  internal_error: 'An unexpected fault in the service. It is logged with the request ID; report `requestId` if it persists.',
  image_upload_failed:
    'One or more images in an article body could not be fetched or stored; `details` has one entry per image saying why. Nothing was saved; fix or remove the images and retry.',
  service_unavailable: 'The database or the job queue cannot be reached. Retry shortly, with backoff.',
};

/** The meaning in a few words (response descriptions). */
const TITLES: Readonly<Record<ErrorCode, string>> = {
  invalid_request: 'the request is malformed or invalid',
  invalid_cursor: 'start_cursor was not issued by this list',
  unauthorized: 'no valid API key',
  insufficient_scope: 'the key lacks the required scope',
  not_found: 'no such resource (or not visible to this key)',
  slug_taken: 'the slug is used by another article',
  invalid_state: 'the state of the resource does not allow this',
  idempotency_key_in_use: 'a request with this Idempotency-Key is still running',
  conflict: 'a unique value is already taken',
  idempotency_key_reused: 'Idempotency-Key reused with a different request',
  precondition_failed: 'If-Match does not match the current ETag',
  payload_too_large: 'body over 10 MiB',
  unsupported_media_type: 'body is not application/json',
  rate_limited: 'rate limit exceeded; see Retry-After',
  internal_error: 'unexpected fault',
  image_upload_failed: 'an image in the body could not be fetched or stored; nothing saved',
  service_unavailable: 'database or queue unreachable',
};

export interface ErrorCatalogEntry {
  readonly code: ErrorCode;
  readonly status: number;
  /** A few words. */
  readonly title: string;
  /** What it means and what to do. */
  readonly meaning: string;
}

/** Every error code with its HTTP status and meaning, in the order of the contract's table. */
export const ERROR_CATALOG: readonly ErrorCatalogEntry[] = ERROR_CODES.map((code) => ({ code, status: HTTP_STATUS_BY_CODE[code], title: TITLES[code], meaning: MEANINGS[code] }));

/** Where the error reference is served, relative to PUBLIC_URL: one entry per code, at `#<code>`. */
export const ERROR_DOCS_PATH = '/docs/errors';

/** The link an error body carries to its code's entry in the error reference (as Stripe's `doc_url`). */
export function errorDocUrl(publicUrl: string, code: ErrorCode): string {
  return `${publicUrl}${ERROR_DOCS_PATH}#${code}`;
}

/** An error body as sent: `{ error, code, details? }` plus the request's ID and the link to the code's entry. */
export interface ErrorEnvelope extends ErrorBody {
  readonly requestId: string;
  readonly docUrl: string;
}

export function errorEnvelope(body: ErrorBody, requestId: string, publicUrl: string): ErrorEnvelope {
  return { ...body, requestId, docUrl: errorDocUrl(publicUrl, body.code) };
}
