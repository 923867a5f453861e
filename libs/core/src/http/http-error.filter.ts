import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { UnauthorizedError } from '../errors/domain-error.js';
import { toErrorResponse } from './error-response.js';

/** Every error leaves the API as `{ error, code }` with its mapped status; faults are logged, never returned. */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrorFilter');

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
    response.status(status).json(body);
  }
}
