import { describe, expect, it } from '@jest/globals';
import {
  BadRequestException,
  ForbiddenException,
  HttpException,
  HttpStatus,
  InternalServerErrorException,
  NotFoundException,
  PayloadTooLargeException,
  ServiceUnavailableException,
  UnauthorizedException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import {
  ConflictError,
  DomainError,
  ERROR_CODES,
  type ErrorCode,
  InsufficientScopeError,
  InvalidCursorError,
  InvalidStateError,
  NotFoundError,
  RateLimitedError,
  ServiceUnavailableError,
  UnauthorizedError,
  ValidationError,
} from '#core';
import { HTTP_STATUS_BY_CODE, toErrorResponse } from './error-response.js';

/** CONTRACT §2, transcribed independently of the product table. */
const CONTRACT_STATUS: Record<string, number> = {
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

const SECRET_DETAIL = 'password=hunter2 host=10.0.0.7 relation "api_keys" column key_hash';

function driverError(code: string, message = SECRET_DETAIL): Error & { code: string } {
  return Object.assign(new Error(message), { code });
}

/** The body must be exactly { error, code } (no stack, no driver text, no stray fields). */
function expectOpaqueBody(body: object, code: ErrorCode): void {
  expect(Object.keys(body).sort()).toEqual(['code', 'error']);
  expect((body as { code: string }).code).toBe(code);
  const text = JSON.stringify(body);
  expect(text).not.toContain('hunter2');
  expect(text).not.toContain('10.0.0.7');
  expect(text).not.toContain('api_keys');
  expect(text).not.toMatch(/\bat .*\.(ts|js):\d+/);
}

describe('HTTP_STATUS_BY_CODE', () => {
  it('covers exactly the error codes of CONTRACT §2', () => {
    expect([...ERROR_CODES].sort()).toEqual(Object.keys(CONTRACT_STATUS).sort());
    expect(Object.keys(HTTP_STATUS_BY_CODE).sort()).toEqual([...ERROR_CODES].sort());
  });

  it.each(ERROR_CODES.map((code) => [code, CONTRACT_STATUS[code]]))('maps %s to %p', (code, status) => {
    expect(HTTP_STATUS_BY_CODE[code as ErrorCode]).toBe(status);
  });

  it('has no duplicate codes', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });
});

describe('toErrorResponse', () => {
  describe('domain errors', () => {
    it.each(ERROR_CODES.map((code) => [code]))('a DomainError with code %s gets its contract status and { error, code }', (code) => {
      const response = toErrorResponse(new DomainError(code, `message for ${code}`));
      expect(response.status).toBe(CONTRACT_STATUS[code]);
      expect(response.body).toEqual({ error: `message for ${code}`, code });
      expect('details' in response.body).toBe(false);
      expect(response.fault).toBeUndefined();
    });

    it('includes validation details', () => {
      const details = [
        { field: 'title', message: 'title must be a string' },
        { field: 'sections.0.id', message: 'id must not be empty' },
      ];
      const response = toErrorResponse(new ValidationError('Invalid body', details));
      expect(response).toEqual({ status: 400, body: { error: 'Invalid body', code: 'invalid_request', details } });
    });

    it('includes the single detail of ValidationError.field', () => {
      const response = toErrorResponse(ValidationError.field('page_size', 'page_size must be an integer from 1 to 100'));
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([{ field: 'page_size', message: 'page_size must be an integer from 1 to 100' }]);
    });

    it.each([
      [new NotFoundError('Article', 'art_123'), 404, 'not_found'],
      [new ConflictError('busy'), 409, 'conflict'],
      [new InvalidStateError('already published'), 409, 'invalid_state'],
      [new UnauthorizedError('missing'), 401, 'unauthorized'],
      [new UnauthorizedError('invalid'), 401, 'unauthorized'],
      [new InsufficientScopeError('content:write'), 403, 'insufficient_scope'],
      [new InvalidCursorError(), 400, 'invalid_cursor'],
      [new RateLimitedError(12), 429, 'rate_limited'],
      [new ServiceUnavailableError(), 503, 'service_unavailable'],
    ] as const)('maps %p to %p %s', (error, status, code) => {
      const response = toErrorResponse(error);
      expect(response.status).toBe(status);
      expect(response.body.code).toBe(code);
      expect(response.body.error).toBe(error.message);
      expect(response.fault).toBeUndefined();
    });

    it('names the missing scope in the 403 message', () => {
      expect(toErrorResponse(new InsufficientScopeError('webhooks:manage')).body.error).toContain('webhooks:manage');
    });

    it('names the resource and id in the 404 message', () => {
      expect(toErrorResponse(new NotFoundError('Article', 'art_123')).body.error).toBe('Article art_123 not found');
    });
  });

  describe('unexpected faults', () => {
    it.each([
      ['an Error', new Error(SECRET_DETAIL)],
      ['a TypeError', new TypeError(`Cannot read properties of undefined (reading '${SECRET_DETAIL}')`)],
      ['an ORM query failure', new QueryFailedError('SELECT * FROM api_keys WHERE key_hash = $1', ['hunter2'], driverError('42P01'))],
      ['a unique violation', new QueryFailedError('INSERT INTO api_keys', [], driverError('23505'))],
      ['a string', SECRET_DETAIL],
      ['null', null],
      ['undefined', undefined],
      ['a plain object', { message: SECRET_DETAIL, stack: 'at x (/app/secret.ts:1:1)' }],
      ['a number', 42],
    ])('%s becomes 500 internal_error without leaking its message', (_label, fault) => {
      const response = toErrorResponse(fault);
      expect(response.status).toBe(500);
      expectOpaqueBody(response.body, 'internal_error');
      expect(response.fault).toBe(fault);
    });

    it('keeps the original error as the fault for logging', () => {
      const error = new Error(SECRET_DETAIL);
      expect(toErrorResponse(error).fault).toBe(error);
    });
  });

  describe('text PostgreSQL cannot store', () => {
    it('a NUL character refused by PostgreSQL (SQLSTATE 22021) is the client’s 400 invalid_request, not a fault', () => {
      const error = new QueryFailedError('INSERT INTO articles', ['a\u0000b'], driverError('22021', `invalid byte sequence for encoding "UTF8": 0x00 ${SECRET_DETAIL}`));
      const response = toErrorResponse(error);
      expect(response.status).toBe(400);
      expectOpaqueBody(response.body, 'invalid_request');
      expect(response.body.error).toMatch(/NUL/);
      expect(response.fault).toBeUndefined();
    });
  });

  describe('database unavailable', () => {
    it.each([
      ['ECONNREFUSED', driverError('ECONNREFUSED', `connect ECONNREFUSED 10.0.0.7:5432 ${SECRET_DETAIL}`)],
      ['ECONNRESET', driverError('ECONNRESET')],
      ['ENOTFOUND', driverError('ENOTFOUND')],
      ['ETIMEDOUT', driverError('ETIMEDOUT')],
      ['EPIPE', driverError('EPIPE')],
      ['admin shutdown 57P01 inside QueryFailedError', new QueryFailedError('SELECT 1', [], driverError('57P01'))],
      ['cannot connect now 57P03 inside QueryFailedError', new QueryFailedError('SELECT 1', [], driverError('57P03'))],
      ['too many connections 53300', driverError('53300')],
      ['pg "Connection terminated"', new Error(`Connection terminated unexpectedly ${SECRET_DETAIL}`)],
      ['pg pool connect timeout', new Error('timeout exceeded when trying to connect')],
      ['a bare connect ECONNREFUSED message', new Error('connect ECONNREFUSED 127.0.0.1:5432')],
    ])('%s becomes 503 service_unavailable without leaking the driver message', (_label, error) => {
      const response = toErrorResponse(error);
      expect(response.status).toBe(503);
      expectOpaqueBody(response.body, 'service_unavailable');
      expect(response.fault).toBe(error);
    });
  });

  describe("Nest's own HTTP exceptions", () => {
    it('an unknown route is 404 not_found with a generic message', () => {
      const response = toErrorResponse(new NotFoundException('Cannot GET /v1/nope'));
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'No such route', code: 'not_found' });
      expect(response.fault).toBeUndefined();
    });

    it.each([
      [new PayloadTooLargeException(), 413, 'payload_too_large'],
      [new UnsupportedMediaTypeException(), 415, 'unsupported_media_type'],
      [new UnauthorizedException(), 401, 'unauthorized'],
      [new ForbiddenException(), 403, 'insufficient_scope'],
      [new HttpException('Too many', HttpStatus.TOO_MANY_REQUESTS), 429, 'rate_limited'],
      [new BadRequestException('Validation failed (numeric string is expected)'), 400, 'invalid_request'],
    ] as const)('%p becomes %p %s', (exception, status, code) => {
      const response = toErrorResponse(exception);
      expect(response.status).toBe(status);
      expect(response.body.code).toBe(code);
      expect(Object.keys(response.body).sort()).toEqual(['code', 'error']);
      expect(response.fault).toBeUndefined();
    });

    it('a 5xx HttpException becomes 500 internal_error, kept as a fault', () => {
      const exception = new InternalServerErrorException();
      const response = toErrorResponse(exception);
      expect(response.status).toBe(500);
      expect(response.body.code).toBe('internal_error');
      expect(response.fault).toBe(exception);
    });

    it('a 5xx HttpException does not leak its internal message', () => {
      const response = toErrorResponse(new InternalServerErrorException(SECRET_DETAIL));
      expectOpaqueBody(response.body, 'internal_error');
    });

    it('a 503 HttpException stays 503 service_unavailable', () => {
      const response = toErrorResponse(new ServiceUnavailableException());
      expect(response.status).toBe(503);
      expect(response.body.code).toBe('service_unavailable');
    });
  });
});
