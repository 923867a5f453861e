import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#core';
import { SignInThrottleRepository } from '../application/sign-in-throttle.repository.js';
import type { ThrottleCounter, ThrottleScope } from '../domain/sign-in-throttle.js';

/** The sign-in throttle's counters in PostgreSQL: one upsert per attempt, so concurrent attempts each count. */
@Injectable()
export class SqlSignInThrottleRepository extends SignInThrottleRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async addAttempt(scope: ThrottleScope, key: string, now: Date, windowMs: number): Promise<ThrottleCounter> {
    const windowStart = new Date(now.getTime() - windowMs);
    // A counter whose window is over starts again, unless it is locked at `now`.
    const [row] = await this.tx.query<ThrottleCounter>(
      `INSERT INTO admin_sign_in_throttle AS t (scope, key, window_started_at, attempts, locked_until)
       VALUES ($1, $2, $3, 1, NULL)
       ON CONFLICT (scope, key) DO UPDATE SET
         window_started_at = CASE WHEN t.window_started_at <= $4 AND (t.locked_until IS NULL OR t.locked_until <= $3) THEN $3 ELSE t.window_started_at END,
         attempts = CASE WHEN t.window_started_at <= $4 AND (t.locked_until IS NULL OR t.locked_until <= $3) THEN 1 ELSE t.attempts + 1 END,
         locked_until = CASE WHEN t.locked_until IS NOT NULL AND t.locked_until <= $3 THEN NULL ELSE t.locked_until END
       RETURNING attempts, window_started_at AS "windowStartedAt", locked_until AS "lockedUntil"`,
      [scope, key, now, windowStart],
    );
    return row!;
  }

  async lock(scope: ThrottleScope, key: string, until: Date): Promise<void> {
    await this.tx.query('UPDATE admin_sign_in_throttle SET locked_until = GREATEST(COALESCE(locked_until, $3), $3) WHERE scope = $1 AND key = $2', [scope, key, until]);
  }

  async clear(scope: ThrottleScope, key: string): Promise<void> {
    await this.tx.query('DELETE FROM admin_sign_in_throttle WHERE scope = $1 AND key = $2', [scope, key]);
  }

  async prune(now: Date, windowMs: number): Promise<void> {
    await this.tx.query('DELETE FROM admin_sign_in_throttle WHERE window_started_at <= $1 AND (locked_until IS NULL OR locked_until <= $2)', [
      new Date(now.getTime() - windowMs),
      now,
    ]);
  }
}
