/** A signed-in admin's session. The cookie holds a random value; the table only its SHA-256 (`tokenHash`). */
export interface AdminSession {
  readonly id: string;
  readonly adminId: string;
  readonly tokenHash: string;
  /** Every form of the session carries it (compared in constant time). */
  readonly csrfToken: string;
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly createdAt: Date;
  readonly lastSeenAt: Date;
  /** The absolute end: sign-in plus SETTINGS_SESSION_MAX_HOURS. */
  readonly expiresAt: Date;
}

/** `last_seen_at` is written at most this often, so a page view does not always write. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

/** When the session ends if it is not used before: idle expiry, never after the absolute end. */
export function idleExpiresAt(session: Pick<AdminSession, 'lastSeenAt' | 'expiresAt'>, idleMs: number): Date {
  return new Date(Math.min(session.lastSeenAt.getTime() + idleMs, session.expiresAt.getTime()));
}

export function isSessionLive(session: Pick<AdminSession, 'lastSeenAt' | 'expiresAt'>, now: Date, idleMs: number): boolean {
  return now.getTime() < idleExpiresAt(session, idleMs).getTime();
}
