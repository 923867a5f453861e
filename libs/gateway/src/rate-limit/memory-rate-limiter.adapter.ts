import { RateLimiter, type RateLimitState, stateOf, windowOf } from './rate-limiter.port.js';

/** Counters in this process (no REDIS_URL): exact for a single API process. */
export class MemoryRateLimiter extends RateLimiter {
  private readonly counters = new Map<string, { count: number; resetAt: number }>();
  private sweepAt = 0;

  async consume(bucket: string, limit: number, windowMs: number, now: number): Promise<RateLimitState> {
    this.sweep(now);
    const { start, resetAt } = windowOf(now, windowMs);
    const key = `${bucket}:${start}`;
    const counter = this.counters.get(key) ?? { count: 0, resetAt };
    counter.count += 1;
    this.counters.set(key, counter);
    return stateOf(counter.count, limit, resetAt);
  }

  private sweep(now: number): void {
    if (now < this.sweepAt) return;
    this.sweepAt = now + 60_000;
    for (const [key, counter] of this.counters) if (counter.resetAt <= now) this.counters.delete(key);
  }
}
