import { Injectable } from '@nestjs/common';
import { Clock } from '#core';
import { isSessionLive, SESSION_TOUCH_INTERVAL_MS } from '../domain/admin-session.js';
import { AdminSessionRepository } from './admin-session.repository.js';
import { adminView, type AuthenticatedAdmin, currentSession } from './admin-views.js';
import { SessionLifetimes } from './session-lifetimes.js';
import { looksLikeToken, tokenHash } from './tokens.js';

/**
 * A session cookie's value → the signed-in admin and their session, or null when the value is unknown, the session
 * ended (idle or absolute expiry, sign-out, revocation, password change) or the admin was removed. Marks the
 * session used, writing at most once a minute.
 */
@Injectable()
export class AuthenticateSessionUseCase {
  constructor(
    private readonly sessions: AdminSessionRepository,
    private readonly lifetimes: SessionLifetimes,
    private readonly clock: Clock,
  ) {}

  async execute(cookieValue: string | null | undefined): Promise<AuthenticatedAdmin | null> {
    if (!looksLikeToken(cookieValue)) return null;
    const found = await this.sessions.findByTokenHash(tokenHash(cookieValue));
    if (!found) return null;
    const now = this.clock.now();
    let { session } = found;
    if (!isSessionLive(session, now, this.lifetimes.idleMs)) {
      await this.sessions.delete(session.id);
      return null;
    }
    if (now.getTime() - session.lastSeenAt.getTime() >= SESSION_TOUCH_INTERVAL_MS) {
      await this.sessions.touch(session.id, now);
      session = { ...session, lastSeenAt: now };
    }
    return { admin: adminView(found.admin), session: currentSession(session, this.lifetimes.idleMs) };
  }
}
