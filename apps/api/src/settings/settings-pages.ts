import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { adminActor, SESSION_COOKIE } from '#admin';
import { type AuditActor, HttpConfig, Principal, ValidationError } from '#core';
import { cookiesOf, CSRF_COOKIE, looksLikeToken, randomToken, secureCookies, setCookie } from './http/cookies.js';
import { authOf, type SettingsRequest, stateOf } from './http/settings-request.js';
import { redirectTo, sendSettingsPage } from './http/settings-response.js';
import { SettingsUrls } from './settings-urls.js';
import { noticeText, type SettingsContext, type SettingsSection } from './views/context.js';
import type { FormErrors } from './views/parts.js';

/** What the settings controllers share: URLs, the view context, cookies, the acting admin, sending pages. */
@Injectable()
export class SettingsPages {
  readonly urls: SettingsUrls;
  /** Whether cookies carry `Secure` (not on plain-http localhost). */
  readonly secureCookies: boolean;

  constructor(http: HttpConfig) {
    this.urls = new SettingsUrls(http.publicUrl);
    this.secureCookies = secureCookies(http.publicUrl);
  }

  /** The context of a page behind the session: the admin, the session's CSRF token, the section, a `?notice=`. */
  context(request: SettingsRequest, section?: SettingsSection): SettingsContext {
    const { admin, session } = authOf(request);
    return { urls: this.urls, admin, csrfToken: session.csrfToken, section, notice: noticeText(request.query['notice']) };
  }

  /**
   * The context of a page shown before a session (setup, sign-in): its forms carry the pre-session token, which the
   * `hc_csrf` cookie (HttpOnly, SameSite=Strict, Path=/settings) repeats; a token the browser has is kept, so two
   * open tabs both work.
   */
  preSessionContext(request: SettingsRequest, response: Response): SettingsContext {
    const state = stateOf(request);
    let token = state.preSessionToken ?? cookiesOf(request).get(CSRF_COOKIE);
    if (!looksLikeToken(token)) {
      token = randomToken();
      setCookie(response, CSRF_COOKIE, token, { path: this.urls.root, secure: this.secureCookies, sameSite: 'Strict' });
    }
    state.preSessionToken = token;
    return { urls: this.urls, admin: null, csrfToken: token, notice: noticeText(request.query['notice']) };
  }

  /** The admin acting in this request, as the audit log names them (email and address). */
  actor(request: SettingsRequest): AuditActor {
    return adminActor(authOf(request).admin, stateOf(request).ip);
  }

  /** The admin as the use cases shared with the JSON API see a caller: full access, audited as the admin. */
  principal(request: SettingsRequest): Principal {
    const { admin } = authOf(request);
    return Principal.admin(admin.id, admin.email, stateOf(request).ip);
  }

  /** Signs the browser in: the session cookie (HttpOnly, SameSite=Lax, Path=/settings, Secure off localhost). */
  setSessionCookie(response: Response, value: string): void {
    setCookie(response, SESSION_COOKIE, value, { path: this.urls.root, secure: this.secureCookies, sameSite: 'Lax' });
  }

  clearSessionCookie(response: Response): void {
    setCookie(response, SESSION_COOKIE, '', { path: this.urls.root, secure: this.secureCookies, sameSite: 'Lax', maxAgeSeconds: 0 });
  }

  send(response: Response, status: number, html: string): void {
    sendSettingsPage(response, status, html);
  }

  redirect(response: Response, location: string): void {
    redirectTo(response, location);
  }
}

/**
 * A use case's validation error as the form's errors, each on the control of its field (`ids`: field → control id);
 * a field the form has no control for goes on `fallback`. Anything else is rethrown.
 */
export function formErrorsOf(error: unknown, ids: Readonly<Record<string, string>>, fallback: string): FormErrors {
  if (!(error instanceof ValidationError)) throw error;
  const details = error.details && error.details.length > 0 ? error.details : [{ field: '', message: error.message }];
  return details.map((detail) => ({ id: ids[detail.field] ?? fallback, message: sentence(detail.message) }));
}

/** A message as a sentence: capital first letter, full stop at the end. */
export function sentence(message: string): string {
  const text = message.trim();
  if (text === '') return text;
  const first = text[0]!.toUpperCase() + text.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}
