import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

/** A stylesheet or script served under a name that carries its content's hash. */
export interface StaticAsset {
  readonly body: string;
  readonly contentType: string;
  /** 12 characters of the body's SHA-256 (URL-safe, no `-` or `_`), the part of the name that changes with it. */
  readonly hash: string;
  readonly etag: string;
}

function hashOf(body: string): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 12).replace(/[-_]/g, 'x');
}

export function staticAsset(body: string, contentType: string): StaticAsset {
  const hash = hashOf(body);
  return { body, contentType, hash, etag: `"${hash}"` };
}

/** Hashed asset names never change content. */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * Sends an asset: cached for a year and never revalidated (a changed file is a new name), 304 to a matching
 * If-None-Match, and a plain 404 (never stored) for a name that is not one of them (`asset` null).
 *
 * A stand-in (`standIn`) is this process's version of a file asked for under another version's hash: during a
 * rolling deploy a page rendered by a newer process can ask an older one for its assets (or the other way round).
 * The reader gets a styled page rather than a 404, and the answer is `no-store` so no browser or CDN keeps it under
 * the other version's name.
 */
export function sendStaticAsset(request: Request, response: Response, asset: StaticAsset | null, options: { standIn?: boolean } = {}): void {
  response.setHeader('X-Content-Type-Options', 'nosniff');
  if (asset === null) {
    response.setHeader('Cache-Control', 'no-store');
    response.status(404).type('text/plain; charset=utf-8').send('Not found\n');
    return;
  }
  if (options.standIn) {
    response.setHeader('Cache-Control', 'no-store');
    response.status(200).type(asset.contentType).send(asset.body);
    return;
  }
  response.setHeader('Cache-Control', ASSET_CACHE_CONTROL);
  response.setHeader('ETag', asset.etag);
  if (request.headers['if-none-match'] !== undefined && request.headers['if-none-match'].includes(asset.etag)) {
    response.status(304).end();
    return;
  }
  response.status(200).type(asset.contentType).send(asset.body);
}
