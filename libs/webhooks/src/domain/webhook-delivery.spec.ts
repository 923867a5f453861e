import { describe, expect, it } from '@jest/globals';
import { parseRetryAfter, retryDelayMs } from './webhook-delivery.js';

const SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];

describe('retryDelayMs', () => {
  it('follows the schedule: 8 attempts in all, then none', () => {
    expect(SCHEDULE.map((_, i) => retryDelayMs(i + 1, SCHEDULE, null))).toEqual(SCHEDULE.map((s) => s * 1000));
    expect(retryDelayMs(8, SCHEDULE, null)).toBeNull();
    expect(retryDelayMs(9, SCHEDULE, null)).toBeNull();
  });

  it('honours a Retry-After only when it asks for longer', () => {
    expect(retryDelayMs(1, SCHEDULE, 60_000)).toBe(60_000);
    expect(retryDelayMs(2, SCHEDULE, 60_000)).toBe(300_000);
    expect(retryDelayMs(8, SCHEDULE, 60_000)).toBeNull();
  });

  it('an empty schedule means a single attempt', () => {
    expect(retryDelayMs(1, [], null)).toBeNull();
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2026-11-22T10:00:00Z');

  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:01:30 GMT', now)).toBe(90_000);
  });

  it('a date in the past is no wait; garbage and absence are null', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
  });
});
