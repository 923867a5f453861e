export interface RateLimitState {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** When the current window ends (ms since epoch). */
  readonly resetAt: number;
}

/**
 * Port: fixed-window counters. Windows are aligned to multiples of their length since the epoch, so
 * every API process agrees on them when the counters are shared (Redis).
 */
export abstract class RateLimiter {
  abstract consume(bucket: string, limit: number, windowMs: number, now: number): Promise<RateLimitState>;
}

export function windowOf(now: number, windowMs: number): { start: number; resetAt: number } {
  const start = Math.floor(now / windowMs) * windowMs;
  return { start, resetAt: start + windowMs };
}

export function stateOf(count: number, limit: number, resetAt: number): RateLimitState {
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetAt };
}
