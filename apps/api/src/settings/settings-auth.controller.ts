import { Get, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  AuthenticateSessionUseCase,
  CheckSetupTokenUseCase,
  CreateFirstAdminWithSetupTokenUseCase,
  InvalidCredentialsError,
  InvalidSetupTokenError,
  SESSION_COOKIE,
  SignInThrottledError,
  SignInUseCase,
  SignOutUseCase,
} from '#admin';
import { queryText, SettingsController } from './controllers.js';
import { cookiesOf } from './http/cookies.js';
import { authOf, formOf, type SettingsRequest, stateOf } from './http/settings-request.js';
import { NoSession } from './settings.guard.js';
import { formErrorsOf, SettingsPages } from './settings-pages.js';
import type { FormErrors } from './views/parts.js';
import { renderSettings } from './views/pages.js';

const SETUP_FIELDS = { name: 'setup-name', email: 'setup-email', password: 'setup-password' };

/**
 * Signing in and out: the first admin from the one-time setup link, the sign-in form (throttled per account and per
 * address by the use case, with the same message for an unknown email as for a wrong password), sign-out.
 */
@SettingsController()
export class SettingsAuthController {
  constructor(
    private readonly pages: SettingsPages,
    private readonly checkSetupToken: CheckSetupTokenUseCase,
    private readonly createFirstAdmin: CreateFirstAdminWithSetupTokenUseCase,
    private readonly signIn: SignInUseCase,
    private readonly signOut: SignOutUseCase,
    private readonly authenticate: AuthenticateSessionUseCase,
  ) {}

  @Get()
  @NoSession()
  root(@Res() response: Response): void {
    this.pages.redirect(response, this.pages.urls.keys());
  }

  /** The setup link's page: the form while the token is good, else what to do instead (404). */
  @Get('setup')
  @NoSession()
  async setupPage(@Query('token') tokenParam: unknown, @Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const token = queryText(tokenParam) ?? '';
    const ctx = this.pages.preSessionContext(request, response);
    if (!(await this.checkSetupToken.execute(token))) {
      this.pages.send(response, 404, renderSettings.setupUnavailable(ctx));
      return;
    }
    this.pages.send(response, 200, renderSettings.setup(ctx, token, { name: '', email: '' }));
  }

  /** Creates the first admin (while there is none), uses up the token and signs them in. */
  @Post('setup')
  @NoSession()
  async setup(@Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const form = formOf(request);
    const { ip, userAgent } = stateOf(request);
    const values = { name: form.text('name'), email: form.text('email') };
    const password = form.text('password');
    const ctx = this.pages.preSessionContext(request, response);
    if (password !== '' && password !== form.text('password_again')) {
      this.pages.send(response, 400, renderSettings.setup(ctx, form.text('token'), values, [{ id: 'setup-password-again', message: 'The two passwords are not the same.' }]));
      return;
    }
    try {
      const signedIn = await this.createFirstAdmin.execute({ token: form.text('token'), name: values.name, email: values.email, password, ip, userAgent });
      this.pages.setSessionCookie(response, signedIn.cookieValue);
      this.pages.redirect(response, this.pages.urls.keys());
    } catch (error) {
      if (error instanceof InvalidSetupTokenError) {
        this.pages.send(response, 409, renderSettings.setupUnavailable(ctx));
        return;
      }
      const errors = formErrorsOf(error, SETUP_FIELDS, 'setup-email');
      this.pages.send(response, 400, renderSettings.setup(ctx, form.text('token'), values, errors));
    }
  }

  @Get('sign-in')
  @NoSession()
  async signInPage(@Query('next') nextParam: unknown, @Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const next = queryText(nextParam);
    // Signed in already: straight on.
    const cookie = cookiesOf(request).get(SESSION_COOKIE);
    if (cookie && (await this.authenticate.execute(cookie))) {
      this.pages.redirect(response, this.pages.urls.afterSignIn(next));
      return;
    }
    const ctx = this.pages.preSessionContext(request, response);
    this.pages.send(response, 200, renderSettings.signIn(ctx, next, ''));
  }

  /**
   * Wrong password and unknown email get the same 401 and message; too many attempts (per account or per address)
   * a 429 with Retry-After and the minutes to wait.
   */
  @Post('sign-in')
  @NoSession()
  async signInForm(@Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const form = formOf(request);
    const { ip, userAgent } = stateOf(request);
    const email = form.text('email').trim();
    const password = form.text('password');
    const next = form.text('next') || undefined;
    const ctx = this.pages.preSessionContext(request, response);
    const missing: FormErrors = [
      ...(email === '' ? [{ id: 'sign-in-email', message: 'Enter your email address.' }] : []),
      ...(password === '' ? [{ id: 'sign-in-password', message: 'Enter your password.' }] : []),
    ];
    if (missing.length > 0) {
      this.pages.send(response, 400, renderSettings.signIn(ctx, next, email, missing));
      return;
    }
    try {
      const signedIn = await this.signIn.execute({ email, password, ip, userAgent });
      this.pages.setSessionCookie(response, signedIn.cookieValue);
      this.pages.redirect(response, this.pages.urls.afterSignIn(next));
    } catch (error) {
      if (error instanceof SignInThrottledError) {
        response.setHeader('Retry-After', String(error.retryAfterSeconds));
        this.pages.send(response, 429, renderSettings.signIn(ctx, next, email, [{ id: 'sign-in-email', message: error.message }]));
        return;
      }
      if (error instanceof InvalidCredentialsError) {
        this.pages.send(response, 401, renderSettings.signIn(ctx, next, email, [{ id: 'sign-in-email', message: error.message }]));
        return;
      }
      const errors = formErrorsOf(error, { email: 'sign-in-email', password: 'sign-in-password' }, 'sign-in-email');
      this.pages.send(response, 400, renderSettings.signIn(ctx, next, email, errors));
    }
  }

  /** Ends this session (the row is deleted, the cookie cleared). */
  @Post('sign-out')
  async signOutForm(@Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const { session } = authOf(request);
    await this.signOut.execute(session.id, this.pages.actor(request));
    this.pages.clearSessionCookie(response);
    this.pages.redirect(response, this.pages.urls.signIn({ notice: 'signed_out' }));
  }
}
