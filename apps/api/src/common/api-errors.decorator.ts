import { applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiResponse } from '@nestjs/swagger';
import { type ErrorCode } from '#core';
import { HTTP_STATUS_BY_CODE } from '#gateway';
import { ErrorResponse } from './error.response.js';

/** Extension listing the codes a route's own errors use; openapi.ts turns it into descriptions and examples, then drops it. */
export const ERROR_CODES_EXTENSION = 'x-error-codes';

/**
 * Documents the errors of a route beyond the ones every route gets (see openapi.ts), by code (`'slug_taken'`) or
 * by status (`409`). One per route: the codes are kept in one extension, which a second decorator would replace.
 */
export function ApiErrors(...errors: Array<ErrorCode | number>): MethodDecorator {
  const codes = errors.filter((error): error is ErrorCode => typeof error === 'string');
  const statuses = [...new Set(errors.map((error) => (typeof error === 'number' ? error : HTTP_STATUS_BY_CODE[error])))];
  return applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, description: `Error ${status}`, type: ErrorResponse })),
    ...(codes.length > 0 ? [ApiExtension(ERROR_CODES_EXTENSION, codes)] : []),
  );
}
