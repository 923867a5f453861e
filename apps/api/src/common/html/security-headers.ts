import type { Response } from 'express';

/**
 * A Content-Security-Policy with nothing inline (no script, no style attribute): scripts, styles and fetches from the
 * site itself, images from `imgSources`, forms posted only to the site, no <base>, and no page in a frame. The public
 * help center and the developer settings differ only in the images they show.
 */
export function strictContentSecurityPolicy(imgSources: readonly string[]): string {
  return [
    "default-src 'none'",
    "style-src 'self'",
    "script-src 'self'",
    `img-src ${imgSources.join(' ')}`,
    "form-action 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export interface SecurityHeaders {
  readonly csp: string;
  /** `strict-origin-when-cross-origin` for public pages; `same-origin` where URLs must not leave the site. */
  readonly referrerPolicy: 'strict-origin-when-cross-origin' | 'same-origin';
  /** X-Frame-Options DENY beside `frame-ancestors 'none'`, for browsers that predate CSP level 2. */
  readonly denyFraming?: boolean;
}

/** The security headers of an HTML page (or its error page). */
export function setSecurityHeaders(response: Response, headers: SecurityHeaders): void {
  response.setHeader('Content-Security-Policy', headers.csp);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', headers.referrerPolicy);
  if (headers.denyFraming) response.setHeader('X-Frame-Options', 'DENY');
}
