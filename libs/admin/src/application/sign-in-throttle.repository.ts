import type { ThrottleCounter, ThrottleScope } from '../domain/sign-in-throttle.js';

/** The sign-in throttle's counters, shared by every API process. Each call is one atomic statement. */
export abstract class SignInThrottleRepository {
  /**
   * Adds one attempt to the counter and returns it: a counter whose window began `windowMs` or more before `now`
   * (and that is not locked at `now`) starts again at this attempt.
   */
  abstract addAttempt(scope: ThrottleScope, key: string, now: Date, windowMs: number): Promise<ThrottleCounter>;
  abstract lock(scope: ThrottleScope, key: string, until: Date): Promise<void>;
  abstract clear(scope: ThrottleScope, key: string): Promise<void>;
  /** Deletes counters whose window and lock are over at `now`. */
  abstract prune(now: Date, windowMs: number): Promise<void>;
}
