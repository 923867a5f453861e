import type { Response } from 'express';
import { setSecurityHeaders, strictContentSecurityPolicy } from '../../common/html/security-headers.js';

/**
 * The settings' policy: the help center's strict one (nothing inline; scripts, styles and fetches from the site;
 * forms post to the site only; no frames) with images from the site and data URLs only.
 */
export const SETTINGS_CSP = strictContentSecurityPolicy(["'self'", 'data:']);

/**
 * The headers of every settings response, pages, redirects and errors alike: never stored (a key or secret is shown
 * on some pages; every page shows who is signed in), the strict CSP, no framing (CSP `frame-ancestors 'none'` and
 * X-Frame-Options DENY), nosniff, and a Referer that never leaves the site (a setup link's token is in its URL).
 */
export function setSettingsHeaders(response: Response): void {
  if (response.headersSent) return;
  setSecurityHeaders(response, { csp: SETTINGS_CSP, referrerPolicy: 'same-origin', denyFraming: true });
  response.setHeader('Cache-Control', 'no-store');
}

export function sendSettingsPage(response: Response, status: number, html: string): void {
  setSettingsHeaders(response);
  response.status(status).type('text/html; charset=utf-8').send(html);
}

/** Post/redirect/get: 303 to a page of the settings (or wherever `location` says). */
export function redirectTo(response: Response, location: string): void {
  setSettingsHeaders(response);
  response.redirect(303, location);
}
