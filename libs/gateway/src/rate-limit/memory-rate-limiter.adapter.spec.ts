import { describe, expect, it } from '@jest/globals';
import { MemoryRateLimiter } from './memory-rate-limiter.adapter.js';
import { RateLimiter, stateOf, windowOf } from './rate-limiter.port.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** 2026-11-22T10:00:00.000Z: a whole hour, so also a minute boundary. */
const T0 = Date.UTC(2026, 10, 22, 10, 0, 0);

describe('windowOf', () => {
  it('aligns windows to multiples of their length since the epoch', () => {
    expect(windowOf(T0, MINUTE)).toEqual({ start: T0, resetAt: T0 + MINUTE });
    expect(windowOf(T0 + 59_999, MINUTE)).toEqual({ start: T0, resetAt: T0 + MINUTE });
    expect(windowOf(T0 + MINUTE, MINUTE)).toEqual({ start: T0 + MINUTE, resetAt: T0 + 2 * MINUTE });
    expect(windowOf(T0 + 25 * MINUTE, HOUR)).toEqual({ start: T0, resetAt: T0 + HOUR });
    expect(windowOf(125_000, MINUTE)).toEqual({ start: 120_000, resetAt: 180_000 });
    expect(windowOf(0, MINUTE)).toEqual({ start: 0, resetAt: MINUTE });
  });

  it('does not depend on when the first request came', () => {
    const a = windowOf(T0 + 1, MINUTE);
    const b = windowOf(T0 + 59_000, MINUTE);
    expect(a).toEqual(b);
  });
});

describe('stateOf', () => {
  it('allows up to the limit and never reports negative remaining', () => {
    expect(stateOf(1, 3, 99)).toEqual({ allowed: true, limit: 3, remaining: 2, resetAt: 99 });
    expect(stateOf(3, 3, 99)).toEqual({ allowed: true, limit: 3, remaining: 0, resetAt: 99 });
    expect(stateOf(4, 3, 99)).toEqual({ allowed: false, limit: 3, remaining: 0, resetAt: 99 });
    expect(stateOf(1000, 3, 99).remaining).toBe(0);
  });
});

describe('MemoryRateLimiter', () => {
  it('implements the RateLimiter port', () => {
    expect(new MemoryRateLimiter()).toBeInstanceOf(RateLimiter);
  });

  it('counts requests in a bucket up to the limit, then refuses', async () => {
    const limiter = new MemoryRateLimiter();
    const states = [];
    for (let i = 0; i < 5; i++) states.push(await limiter.consume('default:key_1', 3, MINUTE, T0 + i * 1000));
    expect(states.map((state) => state.allowed)).toEqual([true, true, true, false, false]);
    expect(states.map((state) => state.remaining)).toEqual([2, 1, 0, 0, 0]);
    for (const state of states) {
      expect(state.limit).toBe(3);
      expect(state.resetAt).toBe(T0 + MINUTE);
    }
  });

  it('never reports negative remaining however far over the limit', async () => {
    const limiter = new MemoryRateLimiter();
    for (let i = 0; i < 50; i++) {
      const state = await limiter.consume('b', 10, MINUTE, T0 + i);
      expect(state.remaining).toBeGreaterThanOrEqual(0);
      expect(state.remaining).toBe(Math.max(0, 10 - (i + 1)));
      expect(state.allowed).toBe(i < 10);
    }
  });

  it('keeps buckets independent', async () => {
    const limiter = new MemoryRateLimiter();
    await limiter.consume('default:key_1', 2, MINUTE, T0);
    await limiter.consume('default:key_1', 2, MINUTE, T0);
    expect((await limiter.consume('default:key_1', 2, MINUTE, T0)).allowed).toBe(false);
    expect(await limiter.consume('default:key_2', 2, MINUTE, T0)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await limiter.consume('createArticle:key_1', 2, HOUR, T0)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('does not confuse buckets whose names are prefixes of each other', async () => {
    const limiter = new MemoryRateLimiter();
    await limiter.consume('default:key_1', 1, MINUTE, T0);
    expect((await limiter.consume('default:key_10', 1, MINUTE, T0)).allowed).toBe(true);
  });

  it('resets at the aligned window boundary, not a window after the first request', async () => {
    const limiter = new MemoryRateLimiter();
    const late = T0 + 59_000; // first request one second before the boundary
    expect(await limiter.consume('b', 2, MINUTE, late)).toMatchObject({ allowed: true, remaining: 1, resetAt: T0 + MINUTE });
    expect(await limiter.consume('b', 2, MINUTE, T0 + 59_999)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.consume('b', 2, MINUTE, T0 + 59_999)).toMatchObject({ allowed: false, remaining: 0 });
    // One millisecond later a new window has begun.
    expect(await limiter.consume('b', 2, MINUTE, T0 + MINUTE)).toMatchObject({ allowed: true, remaining: 1, resetAt: T0 + 2 * MINUTE });
  });

  it('starts every window afresh, with the refused requests of the last window forgotten', async () => {
    const limiter = new MemoryRateLimiter();
    for (let i = 0; i < 10; i++) await limiter.consume('b', 3, MINUTE, T0 + i);
    for (let window = 1; window <= 3; window++) {
      const start = T0 + window * MINUTE;
      expect(await limiter.consume('b', 3, MINUTE, start + 30_000)).toMatchObject({ allowed: true, remaining: 2, resetAt: start + MINUTE });
    }
  });

  it('uses hour windows for hourly policies', async () => {
    const limiter = new MemoryRateLimiter();
    for (let i = 0; i < 60; i++) expect((await limiter.consume('articles:key_1', 60, HOUR, T0 + i * MINUTE)).allowed).toBe(true);
    expect(await limiter.consume('articles:key_1', 60, HOUR, T0 + HOUR - 1)).toMatchObject({ allowed: false, remaining: 0, resetAt: T0 + HOUR });
    expect(await limiter.consume('articles:key_1', 60, HOUR, T0 + HOUR)).toMatchObject({ allowed: true, remaining: 59 });
  });

  it('counts correctly when called concurrently', async () => {
    const limiter = new MemoryRateLimiter();
    const states = await Promise.all(Array.from({ length: 20 }, () => limiter.consume('b', 5, MINUTE, T0)));
    expect(states.filter((state) => state.allowed)).toHaveLength(5);
    expect(states.map((state) => state.remaining).sort((a, b) => b - a)).toEqual([4, 3, 2, 1, ...Array<number>(16).fill(0)]);
  });

  it('does not keep counters of ended windows forever', async () => {
    const limiter = new MemoryRateLimiter();
    for (let i = 0; i < 500; i++) await limiter.consume(`ip:${i}`, 10, MINUTE, T0);
    await limiter.consume('late', 10, MINUTE, T0 + 5 * MINUTE);
    const counters = (limiter as unknown as { counters: Map<string, unknown> }).counters;
    expect(counters.size).toBeLessThanOrEqual(1);
  });
});
