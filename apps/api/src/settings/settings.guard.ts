import { applyDecorators, type CanActivate, type ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { AuthenticateSessionUseCase, SESSION_COOKIE } from '#admin';
import { HttpConfig } from '#core';
import { cookiesOf, CSRF_COOKIE, sameToken } from './http/cookies.js';
import { readForm } from './http/form.js';
import { isSameOriginPost } from './http/same-origin.js';
import { CsrfRefused, SignInRequired, type SettingsRequest } from './http/settings-request.js';
import { setSettingsHeaders } from './http/settings-response.js';

const ACCESS_METADATA = 'help-center:settings-access';

/**
 * A settings page anyone may open (setup, sign-in, the assets): no session needed; its POST carries the pre-session
 * double-submit token (the `hc_csrf` cookie and the form's `_csrf` field) instead of a session's.
 */
export function NoSession(): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(ACCESS_METADATA, 'no-session'));
}

/**
 * Every settings request passes here before its route: the settings' headers are set (no-store, CSP, no framing);
 * pages other than `@NoSession()` ones need a live session (the `hc_session` cookie through
 * AuthenticateSessionUseCase), else the error filter sends the browser to sign in; and every POST must come from the
 * site (Origin, Sec-Fetch-Site) and carry its form's CSRF token (the session's, or the pre-session cookie's), else a
 * 403 page. The form is read here (urlencoded, small) so the check sees its token before any use case runs.
 */
@Injectable()
export class SettingsGuard implements CanActivate {
  private readonly publicOrigin: string;
  /** PUBLIC_URL's path: the app may be served under a prefix its proxy strips, which the browser's URLs keep. */
  private readonly basePath: string;

  constructor(
    private readonly reflector: Reflector,
    private readonly authenticate: AuthenticateSessionUseCase,
    http: HttpConfig,
  ) {
    this.publicOrigin = new URL(http.publicUrl).origin;
    this.basePath = new URL(http.publicUrl).pathname.replace(/\/+$/, '');
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<SettingsRequest>();
    const response = context.switchToHttp().getResponse<Response>();
    setSettingsHeaders(response);
    const userAgent = request.headers['user-agent'];
    request.settings = { ip: request.ip ?? null, userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : null };
    const cookies = cookiesOf(request);
    const noSession = this.reflector.getAllAndOverride<string | undefined>(ACCESS_METADATA, [context.getHandler(), context.getClass()]) === 'no-session';
    if (!noSession) {
      const cookie = cookies.get(SESSION_COOKIE);
      const auth = cookie ? await this.authenticate.execute(cookie) : null;
      if (!auth) throw new SignInRequired(request.method === 'GET' ? `${this.basePath}${request.originalUrl}` : undefined, cookie !== undefined);
      request.settings.auth = auth;
    }
    if (request.method === 'POST') {
      if (!isSameOriginPost(request, this.publicOrigin)) throw new CsrfRefused('origin');
      const form = await readForm(request, response);
      const expected = noSession ? cookies.get(CSRF_COOKIE) : request.settings.auth?.session.csrfToken;
      if (!sameToken(form.text('_csrf'), expected)) throw new CsrfRefused('token');
      request.settings.form = form;
    }
    return true;
  }
}
