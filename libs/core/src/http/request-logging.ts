import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { AuthenticatedRequest } from '../auth/http/auth.decorators.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The incoming X-Request-Id when it is a sane token, else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Sets X-Request-Id on every response and logs one JSON line per request: request id, key id, route,
 * status and duration. Headers (and so Authorization) are not logged at all.
 */
export function requestLogging(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (request: IncomingMessage, response: ServerResponse) => {
      const id = requestIdOf(request);
      response.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel: (_request, response, error) => (error || response.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: (request, response) => `${request.method} ${(request as Request).originalUrl ?? request.url} ${response.statusCode}`,
    customErrorMessage: (request, response) => `${request.method} ${(request as Request).originalUrl ?? request.url} ${response.statusCode}`,
    customProps: (request) => {
      const express = request as Request & AuthenticatedRequest;
      return { keyId: express.principal?.keyId, route: express.route?.path as string | undefined };
    },
    serializers: {
      req: (request: { method: string; url: string }) => ({ method: request.method, url: request.url.split('?')[0] }),
      res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
    },
    wrapSerializers: false,
    quietReqLogger: true,
  }) as unknown as RequestHandler;
}
