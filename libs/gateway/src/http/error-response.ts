import { HttpException, HttpStatus } from '@nestjs/common';
import { DomainError, type ErrorCode, type ErrorDetail, isDatabaseUnavailable, isInvalidTextValue } from '#core';

/** The one table from error code to HTTP status (CONTRACT §2). Typed as a full Record: adding a code without a status does not compile. */
export const HTTP_STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = {
  invalid_request: 400,
  invalid_cursor: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  not_found: 404,
  slug_taken: 409,
  invalid_state: 409,
  idempotency_key_in_use: 409,
  conflict: 409,
  idempotency_key_reused: 422,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  image_upload_failed: 502,
  service_unavailable: 503,
};

export interface ErrorBody {
  readonly error: string;
  readonly code: ErrorCode;
  readonly details?: readonly ErrorDetail[];
}

export interface ErrorResponse {
  readonly status: number;
  readonly body: ErrorBody;
  /** Set for faults the caller did not cause, to be logged with their stack. */
  readonly fault?: unknown;
}

/** Codes for the statuses Nest's own exceptions use (unknown route and the like). */
const CODE_BY_HTTP_STATUS: Readonly<Partial<Record<number, ErrorCode>>> = {
  [HttpStatus.BAD_REQUEST]: 'invalid_request',
  [HttpStatus.UNAUTHORIZED]: 'unauthorized',
  [HttpStatus.FORBIDDEN]: 'insufficient_scope',
  [HttpStatus.NOT_FOUND]: 'not_found',
  [HttpStatus.CONFLICT]: 'conflict',
  [HttpStatus.PRECONDITION_FAILED]: 'precondition_failed',
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'payload_too_large',
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: 'unsupported_media_type',
  [HttpStatus.TOO_MANY_REQUESTS]: 'rate_limited',
  [HttpStatus.SERVICE_UNAVAILABLE]: 'service_unavailable',
};

/**
 * Nest's own HTTP exceptions in the envelope. A status without a code of the contract becomes 400
 * invalid_request (4xx) or 500 internal_error (5xx), so status and code always agree; 5xx messages are
 * internal and are replaced.
 */
function fromHttpException(exception: HttpException): ErrorResponse {
  const raw = exception.getStatus();
  const code = CODE_BY_HTTP_STATUS[raw] ?? (raw >= 500 ? 'internal_error' : 'invalid_request');
  const status = HTTP_STATUS_BY_CODE[code];
  if (status >= 500) {
    const message = code === 'service_unavailable' ? 'A backing service is unavailable; retry shortly' : 'An unexpected error occurred';
    return { status, body: { error: message, code }, fault: exception };
  }
  return { status, body: { error: raw === HttpStatus.NOT_FOUND ? 'No such route' : exception.message, code } };
}

/** Maps anything thrown while serving a request to its status and `{ error, code }` body. */
export function toErrorResponse(exception: unknown): ErrorResponse {
  if (exception instanceof DomainError) {
    const body: ErrorBody = exception.details
      ? { error: exception.message, code: exception.code, details: exception.details }
      : { error: exception.message, code: exception.code };
    return { status: HTTP_STATUS_BY_CODE[exception.code], body };
  }
  if (exception instanceof HttpException) return fromHttpException(exception);
  // A NUL character in a body, path or query value reaches PostgreSQL, which cannot store it: the client's input.
  if (isInvalidTextValue(exception)) {
    return { status: 400, body: { error: 'Text values must not contain NUL (U+0000) characters', code: 'invalid_request' } };
  }
  if (isDatabaseUnavailable(exception)) {
    return { status: 503, body: { error: 'The database is unavailable; retry shortly', code: 'service_unavailable' }, fault: exception };
  }
  return { status: 500, body: { error: 'An unexpected error occurred', code: 'internal_error' }, fault: exception };
}
