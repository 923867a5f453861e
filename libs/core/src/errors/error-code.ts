/** Stable machine-readable error codes (CONTRACT §2). Clients branch on these, so never rename one. */
export const ERROR_CODES = [
  'invalid_request',
  'invalid_cursor',
  'unauthorized',
  'insufficient_scope',
  'not_found',
  'slug_taken',
  'invalid_state',
  'idempotency_key_in_use',
  'conflict',
  'idempotency_key_reused',
  'precondition_failed',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal_error',
  'image_upload_failed',
  'service_unavailable',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
