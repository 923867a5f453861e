import type { ErrorCode } from './error-code.js';

export interface ErrorDetail {
  readonly field: string;
  readonly message: string;
}

/**
 * Base of every error a use case may throw on purpose. The code is part of the API;
 * the HTTP layer maps it to a status in one exhaustive table.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: readonly ErrorDetail[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends DomainError {
  constructor(message: string, details?: readonly ErrorDetail[]) {
    super('invalid_request', message, details);
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError(message, [{ field, message }]);
  }
}

export class NotFoundError extends DomainError {
  constructor(resource: string, id: string) {
    super('not_found', `${resource} ${id} not found`);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string) {
    super('conflict', message);
  }
}

export class InvalidStateError extends DomainError {
  constructor(message: string) {
    super('invalid_state', message);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(readonly reason: 'missing' | 'invalid') {
    super(
      'unauthorized',
      reason === 'missing'
        ? 'An API key is required: send Authorization: Bearer <API key>'
        : 'The API key is invalid, expired or revoked',
    );
  }
}

export class InsufficientScopeError extends DomainError {
  constructor(readonly scope: string) {
    super('insufficient_scope', `This API key lacks the required scope ${scope}`);
  }
}

export class InvalidCursorError extends DomainError {
  constructor(message = 'start_cursor is not a cursor issued by this list') {
    super('invalid_cursor', message);
  }
}

export class RateLimitedError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limited', `Rate limit exceeded; retry in ${retryAfterSeconds} s`);
  }
}

export class ServiceUnavailableError extends DomainError {
  constructor(message = 'A backing service is unavailable; retry shortly') {
    super('service_unavailable', message);
  }
}
