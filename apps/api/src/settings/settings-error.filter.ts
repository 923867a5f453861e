import { type ArgumentsHost, Catch, type ExceptionFilter, Injectable, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { SESSION_COOKIE } from '#admin';
import { DomainError, HttpConfig, InvalidStateError, NotFoundError, RateLimitedError } from '#core';
import { HTTP_STATUS_BY_CODE } from '#gateway';
import { secureCookies, setCookie } from './http/cookies.js';
import { CsrfRefused, SignInRequired, type SettingsRequest } from './http/settings-request.js';
import { redirectTo, sendSettingsPage, setSettingsHeaders } from './http/settings-response.js';
import { SettingsUrls } from './settings-urls.js';
import type { SettingsContext } from './views/context.js';
import type { SettingsErrorPage } from './views/error-view.js';
import { renderSettings } from './views/pages.js';

/** The 403 of a refused form, in the words the page shows. */
export const CSRF_MESSAGE = 'This form expired or came from another site; reload and try again.';

/**
 * The settings' errors as pages (never JSON), with the settings' headers: no session → 303 to sign in (back here
 * afterwards; a dead session cookie is cleared); a refused form → 403; not found → 404; a state that forbids the
 * action (a disabled endpoint) → 409 with its message; too many requests → 429; any other refusal a use case explains
 * (a form that cannot be read, a stale cursor) → its status and message; anything else a 500 page without details,
 * logged with its path (never the query: a setup link's token).
 */
@Catch()
@Injectable()
export class SettingsErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('SettingsErrorFilter');
  private readonly urls: SettingsUrls;
  private readonly secure: boolean;

  constructor(http: HttpConfig) {
    this.urls = new SettingsUrls(http.publicUrl);
    this.secure = secureCookies(http.publicUrl);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<SettingsRequest>();
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) {
      response.end();
      return;
    }
    setSettingsHeaders(response);
    if (exception instanceof SignInRequired) {
      if (exception.hadCookie) setCookie(response, SESSION_COOKIE, '', { path: this.urls.root, secure: this.secure, sameSite: 'Lax', maxAgeSeconds: 0 });
      redirectTo(response, this.urls.signIn({ next: exception.next, notice: exception.hadCookie ? 'session_ended' : undefined }));
      return;
    }
    const { status, page } = this.describe(exception, request);
    if (status === 500) {
      const error = exception instanceof Error ? exception : new Error(String(exception));
      this.logger.error(`settings page ${request.method} ${request.path}: ${error.message}`, error.stack);
    }
    if (exception instanceof RateLimitedError) response.setHeader('Retry-After', String(exception.retryAfterSeconds));
    sendSettingsPage(response, status, renderSettings.error(this.context(request), page));
  }

  private describe(exception: unknown, request: SettingsRequest): { status: number; page: SettingsErrorPage } {
    const back = request.settings?.auth ? undefined : { href: this.urls.signIn(), label: 'Sign in' };
    if (exception instanceof CsrfRefused) return { status: 403, page: { title: 'Form refused', message: CSRF_MESSAGE, back } };
    if (exception instanceof NotFoundError || (exception instanceof DomainError && exception.code === 'not_found')) {
      return { status: 404, page: { title: 'Not found', message: 'There is no such page, or what it showed was deleted.' } };
    }
    if (exception instanceof RateLimitedError) return { status: 429, page: { title: 'Too many requests', message: `Wait ${exception.retryAfterSeconds} seconds, then try again.` } };
    if (exception instanceof InvalidStateError) return { status: 409, page: { title: 'That can’t be done now', message: exception.message, back: this.backOf(request) } };
    if (exception instanceof DomainError) {
      // Any other refusal a use case explains (a bad form, a stale page link, a conflict): its status and message.
      const status = HTTP_STATUS_BY_CODE[exception.code];
      if (status < 500) return { status, page: { title: 'That didn’t work', message: exception.message, back: this.backOf(request) } };
    }
    return { status: 500, page: { title: 'Something went wrong', message: 'The page could not be shown or the change made because of a fault on the server. It was logged; try again in a moment.' } };
  }

  /** The page a refused POST came from (the action's URL without its last segment), within the settings. */
  private backOf(request: SettingsRequest): { href: string; label: string } | undefined {
    if (!request.settings?.auth) return undefined;
    const path = `${this.urls.base}${request.originalUrl.split('?')[0]!}`;
    const parent = request.method === 'POST' ? path.replace(/\/[^/]+$/, '') : path;
    return { href: this.urls.afterSignIn(parent), label: 'Go back' };
  }

  private context(request: SettingsRequest): SettingsContext {
    const auth = request.settings?.auth;
    // Without a session the error page shows no form, so no token.
    return auth ? { urls: this.urls, admin: auth.admin, csrfToken: auth.session.csrfToken } : { urls: this.urls, admin: null, csrfToken: '' };
  }
}
