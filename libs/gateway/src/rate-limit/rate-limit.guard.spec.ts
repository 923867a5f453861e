import { randomBytes } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Redis } from 'ioredis';
import { AppConfig, Clock, Principal, RateLimitedError } from '#core';
import { Public } from '../auth/auth.decorators.js';
import { MemoryRateLimiter } from './memory-rate-limiter.adapter.js';
import { RateLimit, RateLimitGuard } from './rate-limit.guard.js';
import { rateLimitPolicies } from './rate-limit.policy.js';
import type { RateLimiter } from './rate-limiter.port.js';
import { RedisRateLimiter } from './redis-rate-limiter.adapter.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** 2031-01-01T09:00:00.000Z: an hour boundary, so also a minute boundary. */
const HOUR_START = Date.UTC(2031, 0, 1, 9, 0, 0);

function configFrom(env: Record<string, string> = {}): AppConfig {
  return AppConfig.fromEnv({ APP_SECRET: 'unit-test-secret-unit-test-secret-0123', DATA_DIR: '/nonexistent-hc-unit', ...env });
}

describe('rateLimitPolicies', () => {
  it('sizes the CONTRACT §10 policies from the defaults', () => {
    expect(rateLimitPolicies(configFrom().rateLimits)).toEqual({
      default: { limit: 600, windowSeconds: 60, per: 'key' },
      createArticle: { limit: 60, windowSeconds: 3600, per: 'key' },
      publicFeedback: { limit: 10, windowSeconds: 60, per: 'ip' },
    });
  });

  it('takes each limit from its environment variable', () => {
    const config = configFrom({
      RATE_LIMIT_REQUESTS_PER_MINUTE: '7',
      RATE_LIMIT_CREATE_ARTICLES_PER_HOUR: '3',
      RATE_LIMIT_PUBLIC_FEEDBACK_PER_MINUTE: '2',
    });
    expect(rateLimitPolicies(config.rateLimits)).toEqual({
      default: { limit: 7, windowSeconds: 60, per: 'key' },
      createArticle: { limit: 3, windowSeconds: 3600, per: 'key' },
      publicFeedback: { limit: 2, windowSeconds: 60, per: 'ip' },
    });
  });
});

/** Routes as the guard sees them: the metadata comes from the real decorators. */
class Routes {
  list(): void {}

  @RateLimit('createArticle')
  createArticle(): void {}

  @Public()
  @RateLimit('publicFeedback')
  submitFeedback(): void {}

  @Public()
  health(): void {}
}

class FixedClock extends Clock {
  constructor(public at: number) {
    super();
  }

  now(): Date {
    return new Date(this.at);
  }
}

interface Call {
  readonly allowed: boolean;
  readonly error?: unknown;
  readonly headers: Record<string, string>;
}

/** A minimal HTTP context: the request the guard reads and a response that records the headers it sets. */
async function call(guard: RateLimitGuard, route: keyof Routes, request: { keyId?: string; ip?: string }): Promise<Call> {
  const headers: Record<string, string> = {};
  const req = { principal: request.keyId ? new Principal(request.keyId, null) : undefined, ip: request.ip ?? '203.0.113.7' };
  const res = { setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value) };
  const context = {
    getHandler: () => Routes.prototype[route],
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  } as unknown as ExecutionContext;
  try {
    return { allowed: await guard.canActivate(context), headers };
  } catch (error) {
    return { allowed: false, error, headers };
  }
}

const redisPrefix = `hcu${randomBytes(4).toString('hex')}`;
const redisLimiters: RedisRateLimiter[] = [];

afterAll(async () => {
  await Promise.all(redisLimiters.map((limiter) => limiter.onApplicationShutdown()));
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    const keys = await redis.keys(`${redisPrefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
});

describe.each([
  { limiter: 'memory', create: async (): Promise<RateLimiter> => new MemoryRateLimiter() },
  {
    limiter: 'redis',
    create: async (): Promise<RateLimiter> => {
      const limiter = new RedisRateLimiter(REDIS_URL, `${redisPrefix}-${randomBytes(3).toString('hex')}`);
      redisLimiters.push(limiter);
      // Until its connection is up the limiter fails open; these tests are about counting.
      const client = (limiter as unknown as { redis: Redis }).redis;
      const deadline = Date.now() + 10_000;
      while (client.status !== 'ready') {
        if (Date.now() > deadline) throw new Error(`Redis at ${REDIS_URL} did not get ready (${client.status})`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return limiter;
    },
  },
])('RateLimitGuard with the real $limiter limiter', ({ create }) => {
  let clock: FixedClock;
  let guard: RateLimitGuard;

  beforeEach(async () => {
    clock = new FixedClock(HOUR_START + 1_000 * 1_000); // 1000 s into the hour, 40 s into its minute
    guard = new RateLimitGuard(
      new Reflector(),
      await create(),
      clock,
      configFrom({ RATE_LIMIT_REQUESTS_PER_MINUTE: '4', RATE_LIMIT_CREATE_ARTICLES_PER_HOUR: '3', RATE_LIMIT_PUBLIC_FEEDBACK_PER_MINUTE: '2' }).rateLimits,
    );
  });

  it('createArticle: 3 per hour per key, with every header, then 429 with Retry-After until the hour ends', async () => {
    for (const remaining of [2, 1, 0]) {
      const result = await call(guard, 'createArticle', { keyId: 'key_a' });
      expect(result).toEqual({
        allowed: true,
        headers: {
          'x-ratelimit-limit': '3',
          'x-ratelimit-remaining': String(remaining),
          'x-ratelimit-reset': String((HOUR_START + 3_600_000) / 1000),
          'ratelimit-policy': '"default";q=3;w=3600',
          ratelimit: `"default";r=${remaining};t=2600`,
        },
      });
    }
    const limited = await call(guard, 'createArticle', { keyId: 'key_a' });
    expect(limited.allowed).toBe(false);
    expect(limited.error).toBeInstanceOf(RateLimitedError);
    expect((limited.error as RateLimitedError).retryAfterSeconds).toBe(2600);
    expect(limited.headers).toMatchObject({ 'retry-after': '2600', 'x-ratelimit-remaining': '0', ratelimit: '"default";r=0;t=2600' });

    // Later in the same hour: still limited, with a shorter wait.
    clock.at = HOUR_START + 3_599_500;
    const later = await call(guard, 'createArticle', { keyId: 'key_a' });
    expect(later.headers['retry-after']).toBe('1');

    // The next hour has a fresh budget.
    clock.at = HOUR_START + 3_600_000;
    const next = await call(guard, 'createArticle', { keyId: 'key_a' });
    expect(next.allowed).toBe(true);
    expect(next.headers).toMatchObject({ 'x-ratelimit-remaining': '2', ratelimit: '"default";r=2;t=3600' });
  });

  it('keeps the createArticle budget apart from the default one, and per key', async () => {
    for (let i = 0; i < 3; i++) expect((await call(guard, 'createArticle', { keyId: 'key_b' })).allowed).toBe(true);
    expect((await call(guard, 'createArticle', { keyId: 'key_b' })).error).toBeInstanceOf(RateLimitedError);
    // Other routes of the same key use the default policy (4 per minute), untouched so far.
    const other = await call(guard, 'list', { keyId: 'key_b' });
    expect(other.allowed).toBe(true);
    expect(other.headers).toMatchObject({ 'x-ratelimit-limit': '4', 'x-ratelimit-remaining': '3', 'ratelimit-policy': '"default";q=4;w=60' });
    // Another key has its own createArticle budget.
    expect((await call(guard, 'createArticle', { keyId: 'key_c' })).headers['x-ratelimit-remaining']).toBe('2');
  });

  it('default: per minute per key, with Retry-After up to the end of the minute', async () => {
    for (let i = 0; i < 4; i++) expect((await call(guard, 'list', { keyId: 'key_d' })).allowed).toBe(true);
    const limited = await call(guard, 'list', { keyId: 'key_d' });
    expect(limited.error).toBeInstanceOf(RateLimitedError);
    expect(limited.headers).toMatchObject({
      'retry-after': '20',
      'x-ratelimit-reset': String((HOUR_START + 1_020_000) / 1000),
      ratelimit: '"default";r=0;t=20',
    });
  });

  it('publicFeedback: counted per client IP on a public route', async () => {
    expect((await call(guard, 'submitFeedback', { ip: '198.51.100.1' })).headers['x-ratelimit-remaining']).toBe('1');
    expect((await call(guard, 'submitFeedback', { ip: '198.51.100.1' })).allowed).toBe(true);
    const limited = await call(guard, 'submitFeedback', { ip: '198.51.100.1' });
    expect(limited.error).toBeInstanceOf(RateLimitedError);
    expect(limited.headers['ratelimit-policy']).toBe('"default";q=2;w=60');
    expect((await call(guard, 'submitFeedback', { ip: '198.51.100.2' })).allowed).toBe(true);
  });

  it('leaves public routes without a policy alone', async () => {
    for (let i = 0; i < 10; i++) expect(await call(guard, 'health', {})).toEqual({ allowed: true, headers: {} });
  });
});
