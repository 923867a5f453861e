import { Injectable } from '@nestjs/common';
import { Clock } from '#core';
import { isSessionLive } from '../domain/admin-session.js';
import { AdminSessionRepository } from './admin-session.repository.js';
import { type SessionView, sessionView } from './admin-views.js';
import { SessionLifetimes } from './session-lifetimes.js';

/** The admin's live sessions, newest first, the one asking marked `current`. */
@Injectable()
export class ListOwnSessionsUseCase {
  constructor(
    private readonly sessions: AdminSessionRepository,
    private readonly lifetimes: SessionLifetimes,
    private readonly clock: Clock,
  ) {}

  async execute(adminId: string, currentSessionId: string | null): Promise<SessionView[]> {
    const now = this.clock.now();
    const sessions = await this.sessions.listForAdmin(adminId);
    return sessions.filter((s) => isSessionLive(s, now, this.lifetimes.idleMs)).map((s) => sessionView(s, this.lifetimes.idleMs, currentSessionId));
  }
}
