/**
 * Sign-in throttling. Per account (the lowercased email tried, whether an admin has it or not): 5 failed attempts
 * within 15 minutes lock it for 15 minutes. Per client address: 20 attempts within 15 minutes, then none until the
 * window ends. A successful sign-in clears the account's failures.
 */
export const ACCOUNT_MAX_FAILURES = 5;
export const ACCOUNT_WINDOW_MS = 15 * 60_000;
export const ACCOUNT_LOCK_MS = 15 * 60_000;
export const IP_MAX_ATTEMPTS = 20;
export const IP_WINDOW_MS = 15 * 60_000;

export type ThrottleScope = 'account' | 'ip';

/** One counter after an attempt was added to it. */
export interface ThrottleCounter {
  readonly attempts: number;
  readonly windowStartedAt: Date;
  readonly lockedUntil: Date | null;
}
