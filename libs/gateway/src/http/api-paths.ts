import type { Request } from 'express';

/** Every API route lives under it (health probes, the reference and stored images do not). */
export const API_PREFIX = '/v1/';
/** The routes that take no key: published articles and reader feedback. */
export const PUBLIC_PREFIX = '/v1/public/';

/**
 * The request's path as the client sent it. In a mounted middleware Express strips the mount path from `path`, so
 * it is read from `originalUrl`.
 */
export function requestPath(request: Request): string {
  return (request.originalUrl ?? request.url).split('?')[0]!;
}

export function isPublicPath(path: string): boolean {
  return path.startsWith(PUBLIC_PREFIX);
}
