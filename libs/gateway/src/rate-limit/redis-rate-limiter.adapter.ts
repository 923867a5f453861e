import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { RateLimiter, type RateLimitState, stateOf, windowOf } from './rate-limiter.port.js';

const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

/**
 * Counters in Redis (REDIS_URL set), shared by every API process. When Redis cannot be reached the
 * request is let through (fail open) and a warning logged: an outage of the counters must not
 * become an outage of the API.
 */
export class RedisRateLimiter extends RateLimiter implements OnApplicationShutdown {
  private readonly logger = new Logger('RedisRateLimiter');
  private readonly redis: Redis;
  private lastWarning = 0;

  constructor(
    url: string,
    private readonly prefix: string,
  ) {
    super();
    this.redis = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      // A Redis that stops answering on an open connection (a network partition) must fail open too,
      // not hold every request until TCP gives up.
      commandTimeout: 1_000,
    });
    this.redis.on('error', () => undefined);
    this.redis.connect().catch(() => undefined);
  }

  async consume(bucket: string, limit: number, windowMs: number, now: number): Promise<RateLimitState> {
    const { start, resetAt } = windowOf(now, windowMs);
    try {
      const count = (await this.redis.eval(INCREMENT, 1, `${this.prefix}:ratelimit:${bucket}:${start}`, windowMs + 1_000)) as number;
      return stateOf(count, limit, resetAt);
    } catch (error) {
      if (now - this.lastWarning > 60_000) {
        this.lastWarning = now;
        this.logger.warn(`Rate-limit counters unavailable, letting requests through: ${(error as Error).message}`);
      }
      return { allowed: true, limit, remaining: limit, resetAt };
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
