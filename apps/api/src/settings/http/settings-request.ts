import type { Request } from 'express';
import type { AuthenticatedAdmin } from '#admin';
import type { Form } from './form.js';

/** What the settings guard learned about a request, for the route and its error filter. */
export interface SettingsRequestState {
  /** The client address (request.ip: the socket's, or the proxy's forwarded one under Express's `trust proxy`). */
  readonly ip: string | null;
  readonly userAgent: string | null;
  /** The signed-in admin and their session, on the pages that need one. */
  auth?: AuthenticatedAdmin;
  /** The posted form, read and CSRF-checked, on POST routes. */
  form?: Form;
  /** The pre-session CSRF token (double-submit cookie) the page's forms carry (setup, sign-in). */
  preSessionToken?: string;
}

export type SettingsRequest = Request & { settings?: SettingsRequestState };

/** The guard's state for a route behind it (it always runs first). */
export function stateOf(request: SettingsRequest): SettingsRequestState {
  if (!request.settings) throw new Error('A settings route ran without SettingsGuard');
  return request.settings;
}

/** The signed-in admin and session of a route that requires one. */
export function authOf(request: SettingsRequest): AuthenticatedAdmin {
  const auth = stateOf(request).auth;
  if (!auth) throw new Error('A settings route that needs a session ran without one');
  return auth;
}

/** The posted form of a POST route. */
export function formOf(request: SettingsRequest): Form {
  const form = stateOf(request).form;
  if (!form) throw new Error('A settings POST route ran without its form');
  return form;
}

/** Sent to a page that needs a session without one (none, expired, ended, or the admin removed): go and sign in. */
export class SignInRequired extends Error {
  constructor(
    /** The page to come back to after signing in (GET only). */
    readonly next: string | undefined,
    /** A session cookie was sent (it is then cleared). */
    readonly hadCookie: boolean,
  ) {
    super('Sign in to continue');
  }
}

/** A POST without the form's token, with another one, or from another site. */
export class CsrfRefused extends Error {
  constructor(readonly reason: 'token' | 'origin') {
    super('This form expired or came from another site; reload and try again.');
  }
}
