import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { HttpConfig, UnauthorizedError } from '#core';
import { errorEnvelope } from './error-catalog.js';
import { toErrorResponse } from './error-response.js';
import { requestIdOf } from './request-logging.js';

/**
 * Every error leaves the API as `{ error, code }` with its mapped status, plus the request's ID (the
 * `X-Request-Id` header) and `docUrl`, the link to the code's entry in the error reference; faults are logged,
 * never returned.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrorFilter');

  constructor(private readonly http: HttpConfig) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const { status, body, fault } = toErrorResponse(exception);
    if (fault !== undefined) {
      const error = fault instanceof Error ? fault : new Error(String(fault));
      this.logger.error(`${body.code}: ${error.message}`, error.stack);
    }
    if (response.headersSent) {
      response.end();
      return;
    }
    if (exception instanceof UnauthorizedError) {
      // RFC 6750 §3: no error attribute when no credentials were sent.
      response.setHeader('WWW-Authenticate', exception.reason === 'missing' ? 'Bearer realm="help-center"' : 'Bearer realm="help-center", error="invalid_token"');
    }
    response.status(status).json(errorEnvelope(body, requestIdOfResponse(host.switchToHttp().getRequest<Request>(), response), this.http.publicUrl));
  }
}

/** The X-Request-Id the request-logging middleware set on the response (set here if it has not run). */
export function requestIdOfResponse(request: Request, response: Response): string {
  const set = response.getHeader('X-Request-Id');
  if (typeof set === 'string' && set !== '') return set;
  const id = requestIdOf(request);
  response.setHeader('X-Request-Id', id);
  return id;
}
