import type { AuditActor } from '#core';
import type { Admin } from '../domain/admin.js';
import { type AdminSession, idleExpiresAt } from '../domain/admin-session.js';

/** An admin as pages and the CLI see one: never the password hash. */
export interface AdminView {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Where a request came from: written into the session row and the audit log. */
export interface RequestOrigin {
  readonly ip: string | null;
  readonly userAgent: string | null;
}

/** A new session: `cookieValue` goes into the session cookie, `csrfToken` into every form of the session. */
export interface SignedIn {
  readonly admin: AdminView;
  /** `ses_…`: the session's internal ID, never the cookie value. */
  readonly sessionId: string;
  /** 32 random bytes, base64url; only its SHA-256 is stored. */
  readonly cookieValue: string;
  readonly csrfToken: string;
  /** The absolute end of the session. */
  readonly expiresAt: Date;
}

export interface CurrentSession {
  readonly id: string;
  readonly csrfToken: string;
  readonly createdAt: Date;
  readonly lastSeenAt: Date;
  /** The absolute end. */
  readonly expiresAt: Date;
  /** When the session ends unless used before (never after `expiresAt`). */
  readonly idleExpiresAt: Date;
}

/** The admin a session cookie belongs to, and that session. */
export interface AuthenticatedAdmin {
  readonly admin: AdminView;
  readonly session: CurrentSession;
}

/** One of an admin's own sessions, as the account page lists them. */
export interface SessionView {
  readonly id: string;
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly createdAt: Date;
  readonly lastSeenAt: Date;
  readonly expiresAt: Date;
  readonly idleExpiresAt: Date;
  /** The session the list was asked from. */
  readonly current: boolean;
}

export interface CreatedAdmin {
  readonly admin: AdminView;
  /** The password generated when none was given (shown once); null when one was given. */
  readonly generatedPassword: string | null;
}

export function adminView(a: Admin): AdminView {
  return { id: a.id, email: a.email, name: a.name, createdAt: a.createdAt, updatedAt: a.updatedAt };
}

export function currentSession(s: AdminSession, idleMs: number): CurrentSession {
  return { id: s.id, csrfToken: s.csrfToken, createdAt: s.createdAt, lastSeenAt: s.lastSeenAt, expiresAt: s.expiresAt, idleExpiresAt: idleExpiresAt(s, idleMs) };
}

export function sessionView(s: AdminSession, idleMs: number, currentId: string | null): SessionView {
  return {
    id: s.id,
    ip: s.ip,
    userAgent: s.userAgent,
    createdAt: s.createdAt,
    lastSeenAt: s.lastSeenAt,
    expiresAt: s.expiresAt,
    idleExpiresAt: idleExpiresAt(s, idleMs),
    current: s.id === currentId,
  };
}

/** The audit log's name for a signed-in admin acting from `ip`. */
export function adminActor(admin: { readonly id: string; readonly email: string }, ip: string | null): AuditActor {
  return { kind: 'admin', id: admin.id, label: admin.email, ip };
}
