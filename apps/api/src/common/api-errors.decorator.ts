import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorResponse } from './error.response.js';

const DESCRIPTIONS: Record<number, string> = {
  400: 'invalid_request (or invalid_cursor): malformed JSON, failed validation, bad query value',
  401: 'unauthorized: no, malformed, unknown or revoked API key',
  403: 'insufficient_scope: the key lacks the required scope',
  404: 'not_found: unknown ID',
  409: 'invalid_state / conflict / slug_taken / idempotency_key_in_use',
  412: 'precondition_failed: If-Match does not match the current ETag',
  413: 'payload_too_large: body over 10 MiB',
  415: 'unsupported_media_type: body is not application/json',
  422: 'idempotency_key_reused: Idempotency-Key reused with a different request',
  429: 'rate_limited: see Retry-After',
  500: 'internal_error',
  502: 'image_upload_failed',
  503: 'service_unavailable: database or queue unreachable',
};

/** Documents error responses of a route beyond the ones every route gets (see openapi.ts). */
export function ApiErrors(...statuses: number[]): MethodDecorator {
  return applyDecorators(...statuses.map((status) => ApiResponse({ status, description: DESCRIPTIONS[status], type: ErrorResponse })));
}

export function errorDescription(status: number): string {
  return DESCRIPTIONS[status] ?? 'Error';
}
