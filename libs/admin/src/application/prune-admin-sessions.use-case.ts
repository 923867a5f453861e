import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import { ACCOUNT_WINDOW_MS, IP_WINDOW_MS } from '../domain/sign-in-throttle.js';
import { AdminSessionRepository } from './admin-session.repository.js';
import { SessionLifetimes } from './session-lifetimes.js';
import { SignInThrottleRepository } from './sign-in-throttle.repository.js';

/**
 * Deletes what has run out: sessions past their idle or absolute expiry (they already fail authentication; this
 * only stops the table growing between sign-ins) and sign-in throttle counters whose window and lock are over.
 */
@Injectable()
export class PruneAdminSessionsUseCase {
  constructor(
    private readonly sessions: AdminSessionRepository,
    private readonly throttle: SignInThrottleRepository,
    private readonly lifetimes: SessionLifetimes,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<void> {
    const now = this.clock.now();
    await this.unitOfWork.run(async () => {
      await this.sessions.deleteExpired(now, this.lifetimes.idleMs);
      await this.throttle.prune(now, Math.max(ACCOUNT_WINDOW_MS, IP_WINDOW_MS));
    });
  }
}
