import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { setSecurityHeaders, strictContentSecurityPolicy } from '../common/html/security-headers.js';

/**
 * The Content-Security-Policy of every page: nothing inline (no script, no style attribute), scripts and styles from
 * the site itself, images from the site, the image store (STATIC_URL), any https URL (a logo or ogImage hosted
 * elsewhere) and data URLs; forms post only to the site; nothing may frame a page. JSON-LD blocks are data, not
 * script: the browser does not run them, so they need no allowance.
 */
export function contentSecurityPolicy(staticUrl: string): string {
  return strictContentSecurityPolicy(["'self'", new URL(staticUrl).origin, 'https:', 'data:']);
}

/** A CDN may keep a page but must ask again every time: a publish or unpublish shows on the next request. */
export const PAGE_CACHE_CONTROL = 'public, max-age=0, must-revalidate';
/** Error pages are never stored: what was missing may be published the next minute. */
export const ERROR_CACHE_CONTROL = 'no-store';

/** The headers every page (and error page) carries. */
export function setPageSecurityHeaders(response: Response, csp: string): void {
  setSecurityHeaders(response, { csp, referrerPolicy: 'strict-origin-when-cross-origin' });
}

/** A strong entity tag: the SHA-256 of the body (the same page is the same tag on every process). */
export function strongEtag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/** The tags of an If-None-Match header (weak ones compared by their opaque part, as RFC 9110 says for GET). */
function matchesAny(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const tags = header.match(/(?:W\/)?"[^"]*"/g) ?? [];
  return tags.some((tag) => tag.replace(/^W\//, '') === etag);
}

/**
 * Whether the client's copy is current: If-None-Match when sent (it takes precedence, RFC 9110 §13.2.2), otherwise
 * If-Modified-Since against Last-Modified at one-second precision.
 */
export function isNotModified(request: Request, etag: string, lastModified: Date | null): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const noneMatch = request.headers['if-none-match'];
  if (noneMatch !== undefined) return matchesAny(noneMatch, etag);
  const since = request.headers['if-modified-since'];
  if (since === undefined || lastModified === null) return false;
  const sinceMs = Date.parse(since);
  return Number.isFinite(sinceMs) && Math.floor(lastModified.getTime() / 1000) * 1000 <= sinceMs;
}

export interface PageBody {
  readonly body: string;
  readonly contentType: string;
  /** The newest change the body shows (Last-Modified); null when it has none to tell. */
  readonly lastModified: Date | null;
  readonly csp: string;
  /** The body's strong entity tag when already known (a kept page); otherwise computed here. */
  readonly etag?: string;
}

/** Sends a page with its validators, or 304 when the client's copy is current. */
export function sendPage(request: Request, response: Response, page: PageBody): void {
  const etag = page.etag ?? strongEtag(page.body);
  setPageSecurityHeaders(response, page.csp);
  response.setHeader('Cache-Control', PAGE_CACHE_CONTROL);
  response.setHeader('ETag', etag);
  if (page.lastModified !== null) response.setHeader('Last-Modified', page.lastModified.toUTCString());
  if (isNotModified(request, etag, page.lastModified)) {
    response.status(304).end();
    return;
  }
  response.status(200).type(page.contentType).send(page.body);
}

/** Sends an error page (never stored, never validated). */
export function sendErrorPage(response: Response, status: number, body: string, csp: string): void {
  setPageSecurityHeaders(response, csp);
  response.setHeader('Cache-Control', ERROR_CACHE_CONTROL);
  response.status(status).type('text/html; charset=utf-8').send(body);
}
