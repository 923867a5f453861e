import { expect } from '@jest/globals';

/**
 * The error envelope as sent (CONTRACT §2 plus the request's ID and the link to the code's entry):
 * `{ error, code, requestId, docUrl }` with `error` matching `error` (any string by default).
 */
export function errorBody(code: string, error: unknown = expect.any(String)): Record<string, unknown> {
  return { error, code, requestId: expect.any(String), docUrl: expect.stringMatching(new RegExp(`/docs/errors#${code}$`)) };
}
