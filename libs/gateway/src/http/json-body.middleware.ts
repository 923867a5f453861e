import { Injectable, type NestMiddleware } from '@nestjs/common';
import express, { type NextFunction, type Request, type Response } from 'express';
import { DomainError, unstorableTextError, ValidationError } from '#core';
import { AuthenticateApiKeyUseCase } from '../api-keys/application/authenticate-api-key.use-case.js';
import type { AuthenticatedRequest } from '../auth/auth.decorators.js';
import { bearerToken } from '../auth/auth.guard.js';
import { API_PREFIX, isPublicPath, requestPath } from './api-paths.js';

export const MAX_BODY_BYTES = 10 * 1024 * 1024;
/**
 * Deepest nesting of objects and arrays a body may have. Far beyond any real document, and far below the
 * depth at which the recursive transformer and validators overflow the stack (a 500 on client input).
 */
export const MAX_JSON_DEPTH = 256;

const parseJson = express.json({ limit: MAX_BODY_BYTES, strict: true, type: ['application/json', 'application/*+json'] });

function isFormBody(request: Request): boolean {
  return /^application\/x-www-form-urlencoded\s*(;|$)/i.test(request.headers['content-type'] ?? '');
}

function hasBody(request: Request): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return length !== '0';
  return request.headers['transfer-encoding'] !== undefined;
}

/** Whether `value` nests objects/arrays deeper than `max` levels; iterative, so any depth is safe to check. */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const child of Object.values(current as object)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** The body parser's failures (identified by their `type`) as API errors. */
function bodyError(error: unknown): unknown {
  switch ((error as { type?: string }).type) {
    case 'entity.parse.failed':
      return new ValidationError('The request body is not valid JSON');
    case 'entity.too.large':
      return new DomainError('payload_too_large', 'The request body exceeds the 10 MiB limit');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new DomainError('unsupported_media_type', 'The request body must be UTF-8 JSON');
    case 'request.aborted':
    case 'request.size.invalid':
      return new ValidationError('The request body was incomplete');
    default:
      return error;
  }
}

/**
 * JSON bodies only, up to 10 MiB: another media type with a body is 415, malformed JSON 400, too large
 * 413 (raised here, inside Nest, so the global filter shapes the error). Text anywhere in the body (values
 * and property names, at any depth) must be storable: NUL (U+0000) and unpaired surrogates are 400 naming the
 * field, for every route at once, before any validator or use case sees them.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  constructor(private readonly authenticate: AuthenticateApiKeyUseCase) {}

  use(request: Request & AuthenticatedRequest, response: Response, next: NextFunction): void {
    if (!hasBody(request)) {
      request.body = undefined;
      next();
      return;
    }
    // Authentication comes first: a request without a valid key is answered 401 before its body is read, so a
    // client without a key cannot make the server read (or validate) up to 10 MiB. The public routes (the only
    // ones under /v1/public/) take bodies without a key.
    // Outside /v1 nothing takes a body (an unknown path stays a 404) but the public help center's HTML forms: their
    // small urlencoded body is left to the route, which reads it with its own size limit and answers with pages.
    const path = requestPath(request);
    if (!path.startsWith(API_PREFIX) && isFormBody(request)) {
      next();
      return;
    }
    if (!path.startsWith(API_PREFIX) || isPublicPath(path)) {
      this.parse(request, response, next);
      return;
    }
    this.authenticate.execute(bearerToken(request.headers.authorization), request.ip ?? null).then(
      (principal) => {
        request.principal = principal;
        this.parse(request, response, next);
      },
      (error: unknown) => {
        // The body stays unread; the connection is closed after the answer rather than drained.
        response.setHeader('Connection', 'close');
        next(error);
      },
    );
  }

  private parse(request: Request, response: Response, next: NextFunction): void {
    const type = request.headers['content-type'];
    if (!type || !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
      next(new DomainError('unsupported_media_type', 'Request bodies must be application/json'));
      return;
    }
    parseJson(request, response, (error?: unknown) => {
      if (error) return next(bodyError(error));
      if (Array.isArray(request.body)) return next(new ValidationError('The request body must be a JSON object'));
      if (nestedDeeperThan(request.body, MAX_JSON_DEPTH)) {
        return next(new ValidationError(`The request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`));
      }
      next(unstorableTextError(request.body) ?? undefined);
    });
  }
}
