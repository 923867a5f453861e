import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { AuthenticatedRequest } from '../auth/auth.decorators.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The incoming X-Request-Id when it is a sane token, else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Sets X-Request-Id on every response and logs one JSON line per request when it finishes: request id, key
 * id, method, path (no query string), route, status and duration. Headers (and so Authorization) are never
 * logged. 5xx responses are logged at error level; the rest at info.
 */
export function requestLogging(logger: Logger): RequestHandler {
  return (request: Request & AuthenticatedRequest, response: Response, next: NextFunction) => {
    const reqId = requestIdOf(request);
    response.setHeader('X-Request-Id', reqId);
    const started = performance.now();
    response.once('finish', () => {
      const status = response.statusCode;
      const level = status >= 500 ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const path = request.originalUrl.split('?')[0];
      logger[level](
        {
          reqId,
          keyId: request.principal?.keyId,
          method: request.method,
          path,
          route: (request.route as { path?: string } | undefined)?.path,
          status,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
        },
        `${request.method} ${path} ${status}`,
      );
    });
    next();
  };
}
