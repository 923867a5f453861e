import type { CorsOptions, CorsOptionsDelegate } from '@nestjs/common/interfaces/external/cors-options.interface.js';
import type { Request } from 'express';
import { isPublicPath, requestPath } from './api-paths.js';

const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-Match', 'If-None-Match', 'X-Request-Id'];
const EXPOSED_HEADERS = [
  'ETag',
  'X-Request-Id',
  'Retry-After',
  'Idempotent-Replayed',
  'WWW-Authenticate',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit-Policy',
  'RateLimit',
];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Cross-origin access. The public routes (`/v1/public/*`: published articles, reader feedback) answer any origin, so
 * a help center front end on its own domain can use them without a key. The rest of the API answers the origins in
 * CORS_ORIGINS (`*` for any); none by default, since keys belong on servers, not in browsers. Credentials (cookies)
 * are never allowed: the API authenticates with Bearer keys only. Preflights are answered with 204.
 */
export function corsDelegate(allowedOrigins: readonly string[]): CorsOptionsDelegate<Request> {
  const any = allowedOrigins.includes('*');
  return (request: Request, callback: (error: Error | null, options: CorsOptions) => void) => {
    const origin = request.headers.origin;
    const open = isPublicPath(requestPath(request));
    const allowed = open || any || (origin !== undefined && allowedOrigins.includes(origin));
    callback(null, {
      origin: allowed ? (any || open ? '*' : origin) : false,
      methods: METHODS,
      allowedHeaders: ALLOWED_HEADERS,
      exposedHeaders: EXPOSED_HEADERS,
      credentials: false,
      maxAge: 600,
      optionsSuccessStatus: 204,
    });
  };
}
