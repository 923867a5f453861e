import { Injectable } from '@nestjs/common';
import { newId } from '#core';
import type { Admin } from '../domain/admin.js';
import { AdminSessionRepository } from './admin-session.repository.js';
import { adminView, type RequestOrigin, type SignedIn } from './admin-views.js';
import { SessionLifetimes } from './session-lifetimes.js';
import { randomToken, tokenHash } from './tokens.js';

/** Longest user agent kept with a session. */
const MAX_USER_AGENT = 512;

/** Starts a session for an admin who proved who they are (sign-in, first admin). Shared by those use cases. */
@Injectable()
export class SessionStarter {
  constructor(
    private readonly sessions: AdminSessionRepository,
    private readonly lifetimes: SessionLifetimes,
  ) {}

  async start(admin: Admin, origin: RequestOrigin, now: Date): Promise<SignedIn> {
    const cookieValue = randomToken();
    const expiresAt = new Date(now.getTime() + this.lifetimes.maxMs);
    const id = newId('ses');
    const csrfToken = randomToken();
    await this.sessions.insert({
      id,
      adminId: admin.id,
      tokenHash: tokenHash(cookieValue),
      csrfToken,
      ip: origin.ip,
      userAgent: origin.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
      createdAt: now,
      lastSeenAt: now,
      expiresAt,
    });
    return { admin: adminView(admin), sessionId: id, cookieValue, csrfToken, expiresAt };
  }
}
