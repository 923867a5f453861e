import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';

/** The double-submit token of the forms shown before a session exists (setup, sign-in). */
export const CSRF_COOKIE = 'hc_csrf';

/** A Cookie header's values by name; the first of a repeated name wins (the browser sends the most specific path first). */
export function cookiesOf(request: Request): Map<string, string> {
  const cookies = new Map<string, string>();
  const header = request.headers.cookie;
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (name && !cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}

/**
 * Whether cookies carry `Secure`: always, except when PUBLIC_URL is plain http on the machine itself (localhost,
 * 127.0.0.1, [::1]), where browsers would refuse to send them back.
 */
export function secureCookies(publicUrl: string): boolean {
  const url = new URL(publicUrl);
  return !(url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname));
}

export interface CookieOptions {
  readonly path: string;
  readonly secure: boolean;
  readonly sameSite: 'Strict' | 'Lax';
  /** 0 deletes the cookie; omitted, it lasts as long as the browser session. */
  readonly maxAgeSeconds?: number;
}

/** Appends a Set-Cookie (HttpOnly always: no script reads these cookies). */
export function setCookie(response: Response, name: string, value: string, options: CookieOptions): void {
  const parts = [`${name}=${value}`, `Path=${options.path}`, 'HttpOnly', `SameSite=${options.sameSite}`];
  if (options.secure) parts.push('Secure');
  if (options.maxAgeSeconds !== undefined) {
    parts.push(`Max-Age=${options.maxAgeSeconds}`);
    if (options.maxAgeSeconds === 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  }
  response.append('Set-Cookie', parts.join('; '));
}

/** 32 random bytes, base64url: a CSRF token. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function looksLikeToken(value: string | undefined): value is string {
  return value !== undefined && TOKEN.test(value);
}

/** Compares two tokens in constant time (for equal lengths); a missing one never matches. */
export function sameToken(given: string | undefined, expected: string | undefined): boolean {
  if (!given || !expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
