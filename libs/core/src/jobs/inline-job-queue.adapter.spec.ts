import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { InlineJobQueue } from './inline-job-queue.adapter.js';
import { JobName } from './job-name.js';
import type { JobContext, JobProcessor } from './job-processor.js';
import type { JobProcessorRegistry } from './job-processor.registry.js';
import { DEFAULT_JOB_OPTIONS, JobQueue, retryDelay } from './job-queue.port.js';

const KEY_USAGE = JobName.RecordKeyUsage;
const PRUNE = JobName.PruneIdempotencyKeys;

interface Call {
  readonly name: JobName;
  readonly payload: unknown;
  readonly context: JobContext;
  /** Fake-clock time of the call, relative to the start of the test. */
  readonly at: number;
}

type Handler = (payload: unknown, context: JobContext) => Promise<void>;

interface Deferred {
  readonly promise: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * A registry fake: one handler and concurrency per job name; records every call with its fake-clock time.
 * Unconfigured names get a handler that succeeds.
 */
function harness(config: Partial<Record<JobName, { handle?: Handler; concurrency?: number }>> = {}) {
  const start = Date.now();
  const calls: Call[] = [];
  const running = new Map<JobName, number>();
  const maxRunning = new Map<JobName, number>();
  const registry = {
    get(name: JobName) {
      const entry = config[name] ?? {};
      const handle = entry.handle ?? (async () => undefined);
      const processor = {
        async handle(payload: unknown, context: JobContext): Promise<void> {
          calls.push({ name, payload, context, at: Date.now() - start });
          running.set(name, (running.get(name) ?? 0) + 1);
          maxRunning.set(name, Math.max(maxRunning.get(name) ?? 0, running.get(name)!));
          try {
            await handle(payload, context);
          } finally {
            running.set(name, running.get(name)! - 1);
          }
        },
      };
      return { processor: processor as unknown as JobProcessor, concurrency: entry.concurrency ?? 1 };
    },
  };
  const queue = new InlineJobQueue(registry as unknown as JobProcessorRegistry);
  return { queue, calls, running, maxRunning };
}

/** Lets due timers fire and the promise chains they start settle, moving the fake clock by `ms`. */
async function advance(ms = 0): Promise<void> {
  await jest.advanceTimersByTimeAsync(ms);
}

function tracked<T>(promise: Promise<T>): { readonly settled: boolean } {
  const state = { settled: false };
  void promise.then(() => {
    state.settled = true;
  });
  return state;
}

/**
 * The fake clock runs a zero-delay timer set while timers fire 1 ms later, so a job added by the repeat
 * interval starts 1 ms after the interval fires.
 */
const TICK = 1;

const failing: Handler = async () => {
  throw new Error('boom');
};

describe('retryDelay', () => {
  it('is constant for fixed backoff', () => {
    for (const attempt of [1, 2, 3, 10]) expect(retryDelay({ type: 'fixed', delayMs: 250 }, attempt)).toBe(250);
  });

  it('doubles from the base delay for exponential backoff', () => {
    const backoff = { type: 'exponential', delayMs: 1000 } as const;
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelay(backoff, attempt))).toEqual([1000, 2000, 4000, 8000, 16000]);
  });

  it('defaults to 3 attempts with exponential backoff from 1 s', () => {
    expect(DEFAULT_JOB_OPTIONS).toEqual({ attempts: 3, backoff: { type: 'exponential', delayMs: 1000 } });
  });
});

describe('InlineJobQueue', () => {
  beforeAll(() => {
    Logger.overrideLogger(false); // retries and failures are logged on purpose; keep the test output clean
  });

  afterAll(() => {
    Logger.overrideLogger(true);
  });

  beforeEach(() => {
    jest.useFakeTimers({ now: Date.UTC(2026, 10, 22, 10, 0, 0) });
  });

  afterEach(() => {
    jest.clearAllTimers();
    jest.useRealTimers();
  });

  it('implements the JobQueue port', () => {
    expect(harness().queue).toBeInstanceOf(JobQueue);
  });

  describe('remove', () => {
    it('drops a delayed job so it never runs, and frees its ID for a job that runs at once', async () => {
      const { queue, calls } = harness();
      await queue.add(KEY_USAGE, { keyId: 'late', usedAt: '2026-11-22T10:00:00.000Z' }, { jobId: 'job-1', delayMs: 60_000 });
      await queue.remove(KEY_USAGE, 'job-1');
      await queue.add(KEY_USAGE, { keyId: 'now', usedAt: '2026-11-22T10:00:00.000Z' }, { jobId: 'job-1' });
      await advance();
      expect(calls.map((c) => (c.payload as { keyId: string }).keyId)).toEqual(['now']);
      await advance(120_000);
      expect(calls).toHaveLength(1);
    });

    it('drops a waiting job whose processor is busy, and ignores unknown IDs', async () => {
      const gate = deferred();
      const { queue, calls } = harness({ [KEY_USAGE]: { handle: () => gate.promise, concurrency: 1 } });
      await queue.add(KEY_USAGE, { keyId: 'first', usedAt: '2026-11-22T10:00:00.000Z' }, { jobId: 'a' });
      await queue.add(KEY_USAGE, { keyId: 'second', usedAt: '2026-11-22T10:00:00.000Z' }, { jobId: 'b' });
      await advance();
      await queue.remove(KEY_USAGE, 'b');
      await queue.remove(KEY_USAGE, 'nope');
      gate.resolve();
      await advance();
      await queue.whenIdle();
      expect(calls.map((c) => (c.payload as { keyId: string }).keyId)).toEqual(['first']);
    });
  });

  describe('running jobs', () => {
    it('runs an added job once, with attempt 1 and its job ID', async () => {
      const { queue, calls } = harness();
      await queue.add(KEY_USAGE, { keyId: 'key_1', usedAt: '2026-11-22T10:00:00.000Z' }, { jobId: 'usage:key_1' });
      await advance();
      expect(calls).toEqual([
        { name: KEY_USAGE, payload: { keyId: 'key_1', usedAt: '2026-11-22T10:00:00.000Z' }, context: { jobId: 'usage:key_1', attempt: 1 }, at: 0 },
      ]);
      await advance(60_000);
      expect(calls).toHaveLength(1);
    });

    it('runs the job off the caller’s stack (add returns before the processor runs)', async () => {
      const { queue, calls } = harness();
      await queue.add(PRUNE, {});
      expect(calls).toHaveLength(0);
      await advance();
      expect(calls).toHaveLength(1);
    });

    it('passes a JSON clone of the payload, as BullMQ would', async () => {
      const { queue, calls } = harness();
      const payload = {
        keyId: 'key_1',
        usedAt: new Date('2026-11-22T10:00:00.000Z'),
        nested: { list: [1, 'two', { three: 3 }] },
        missing: undefined,
        fn: () => 'x',
      };
      await queue.add(KEY_USAGE, payload as never);
      payload.keyId = 'mutated after add';
      payload.nested.list.push('late');
      await advance();
      const received = calls[0]!.payload as Record<string, unknown>;
      expect(received).toEqual({ keyId: 'key_1', usedAt: '2026-11-22T10:00:00.000Z', nested: { list: [1, 'two', { three: 3 }] } });
      expect('missing' in received).toBe(false);
      expect('fn' in received).toBe(false);
      expect(received).not.toBe(payload);
      expect(received['nested']).not.toBe(payload.nested);
    });

    it('runs jobs of one name in the order they were added', async () => {
      const { queue, calls } = harness();
      for (const keyId of ['a', 'b', 'c', 'd']) await queue.add(KEY_USAGE, { keyId, usedAt: 'x' });
      await advance();
      expect(calls.map((call) => (call.payload as { keyId: string }).keyId)).toEqual(['a', 'b', 'c', 'd']);
    });

    it('resolves ping while open', async () => {
      await expect(harness().queue.ping()).resolves.toBeUndefined();
    });
  });

  describe('delays', () => {
    it('waits delayMs before running a job', async () => {
      const { queue, calls } = harness();
      await queue.add(PRUNE, {}, { delayMs: 5_000 });
      await advance(4_999);
      expect(calls).toHaveLength(0);
      await advance(1);
      expect(calls).toHaveLength(1);
      expect(calls[0]!.at).toBe(5_000);
    });

    it('runs a later job with a shorter delay first', async () => {
      const { queue, calls } = harness();
      await queue.add(KEY_USAGE, { keyId: 'slow', usedAt: 'x' }, { delayMs: 2_000 });
      await queue.add(KEY_USAGE, { keyId: 'fast', usedAt: 'x' }, { delayMs: 500 });
      await queue.add(KEY_USAGE, { keyId: 'now', usedAt: 'x' });
      await advance(3_000);
      expect(calls.map((call) => [(call.payload as { keyId: string }).keyId, call.at])).toEqual([
        ['now', 0],
        ['fast', 500],
        ['slow', 2_000],
      ]);
    });

    it('treats a negative delay as none', async () => {
      const { queue, calls } = harness();
      await queue.add(PRUNE, {}, { delayMs: -100 });
      await advance();
      expect(calls).toHaveLength(1);
    });
  });

  describe('retries', () => {
    it('retries a failing job with the default exponential backoff until 3 attempts are used', async () => {
      const { queue, calls } = harness({ [PRUNE]: { handle: failing } });
      await queue.add(PRUNE, {});
      await advance();
      expect(calls).toHaveLength(1);
      await advance(999);
      expect(calls).toHaveLength(1);
      await advance(1);
      expect(calls).toHaveLength(2);
      await advance(1_999);
      expect(calls).toHaveLength(2);
      await advance(1);
      expect(calls).toHaveLength(3);
      await advance(24 * 3600 * 1000);
      expect(calls.map((call) => [call.context.attempt, call.at])).toEqual([
        [1, 0],
        [2, 1_000],
        [3, 3_000],
      ]);
    });

    it('uses the given attempts and exponential base delay', async () => {
      const { queue, calls } = harness({ [PRUNE]: { handle: failing } });
      await queue.add(PRUNE, {}, { attempts: 5, backoff: { type: 'exponential', delayMs: 100 } });
      await advance(60_000);
      expect(calls.map((call) => [call.context.attempt, call.at])).toEqual([
        [1, 0],
        [2, 100],
        [3, 300],
        [4, 700],
        [5, 1_500],
      ]);
    });

    it('uses a fixed delay between attempts for fixed backoff', async () => {
      const { queue, calls } = harness({ [PRUNE]: { handle: failing } });
      await queue.add(PRUNE, {}, { attempts: 4, backoff: { type: 'fixed', delayMs: 250 } });
      await advance(60_000);
      expect(calls.map((call) => call.at)).toEqual([0, 250, 500, 750]);
      expect(calls.map((call) => call.context.attempt)).toEqual([1, 2, 3, 4]);
    });

    it('adds the retry delay after the failure, not after the start of the attempt', async () => {
      const handle: Handler = async () => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        throw new Error('slow failure');
      };
      const { queue, calls } = harness({ [PRUNE]: { handle } });
      await queue.add(PRUNE, {}, { attempts: 2, backoff: { type: 'fixed', delayMs: 1_000 } });
      await advance(10_000);
      expect(calls.map((call) => call.at)).toEqual([0, 1_400]);
    });

    it('does not retry with attempts: 1', async () => {
      const { queue, calls } = harness({ [PRUNE]: { handle: failing } });
      await queue.add(PRUNE, {}, { attempts: 1 });
      await advance(60_000);
      expect(calls).toHaveLength(1);
    });

    it('stops retrying once an attempt succeeds', async () => {
      let failures = 2;
      const handle: Handler = async () => {
        if (failures-- > 0) throw new Error('transient');
      };
      const { queue, calls } = harness({ [PRUNE]: { handle } });
      await queue.add(PRUNE, {}, { attempts: 5, backoff: { type: 'fixed', delayMs: 10 } });
      await advance(60_000);
      expect(calls.map((call) => call.context.attempt)).toEqual([1, 2, 3]);
    });

    it('passes the same payload and job ID to every attempt', async () => {
      const { queue, calls } = harness({ [KEY_USAGE]: { handle: failing } });
      await queue.add(KEY_USAGE, { keyId: 'key_9', usedAt: 'x' }, { jobId: 'j9', backoff: { type: 'fixed', delayMs: 1 } });
      await advance(100);
      expect(calls).toHaveLength(3);
      for (const call of calls) {
        expect(call.payload).toEqual({ keyId: 'key_9', usedAt: 'x' });
        expect(call.context.jobId).toBe('j9');
      }
    });

    it('treats a rejection with a non-Error value as a failure too', async () => {
      const handle: Handler = () => Promise.reject('plain string');
      const { queue, calls } = harness({ [PRUNE]: { handle } });
      await queue.add(PRUNE, {}, { attempts: 2, backoff: { type: 'fixed', delayMs: 5 } });
      await advance(100);
      expect(calls).toHaveLength(2);
    });

    it('treats a synchronous throw from handle() as a failed attempt', async () => {
      let calls = 0;
      const registry = {
        get: () => ({
          processor: {
            handle: (): Promise<void> => {
              calls += 1;
              throw new Error('sync');
            },
          } as unknown as JobProcessor,
          concurrency: 1,
        }),
      };
      const queue = new InlineJobQueue(registry as unknown as JobProcessorRegistry);
      await queue.add(PRUNE, {}, { attempts: 2, backoff: { type: 'fixed', delayMs: 5 } });
      await advance(100);
      expect(calls).toBe(2);
    });
  });

  describe('deduplication by job ID', () => {
    it('drops a job whose ID is already waiting (delayed)', async () => {
      const { queue, calls } = harness();
      await queue.add(KEY_USAGE, { keyId: 'first', usedAt: 'x' }, { jobId: 'same', delayMs: 1_000 });
      await queue.add(KEY_USAGE, { keyId: 'second', usedAt: 'x' }, { jobId: 'same' });
      await advance(5_000);
      expect(calls.map((call) => (call.payload as { keyId: string }).keyId)).toEqual(['first']);
    });

    it('drops a job whose ID is running', async () => {
      const gate = deferred();
      const { queue, calls } = harness({ [KEY_USAGE]: { handle: () => gate.promise, concurrency: 5 } });
      await queue.add(KEY_USAGE, { keyId: 'first', usedAt: 'x' }, { jobId: 'same' });
      await advance();
      expect(calls).toHaveLength(1);
      await queue.add(KEY_USAGE, { keyId: 'second', usedAt: 'x' }, { jobId: 'same' });
      await advance(1_000);
      expect(calls).toHaveLength(1);
      gate.resolve();
      await advance(1_000);
      expect(calls).toHaveLength(1);
    });

    it('drops a job whose ID is waiting for a retry', async () => {
      const { queue, calls } = harness({ [KEY_USAGE]: { handle: failing } });
      await queue.add(KEY_USAGE, { keyId: 'first', usedAt: 'x' }, { jobId: 'same', attempts: 2, backoff: { type: 'fixed', delayMs: 1_000 } });
      await advance(10);
      await queue.add(KEY_USAGE, { keyId: 'second', usedAt: 'x' }, { jobId: 'same' });
      await advance(5_000);
      expect(calls.map((call) => (call.payload as { keyId: string }).keyId)).toEqual(['first', 'first']);
    });

    it('accepts the ID again once the job completed', async () => {
      const { queue, calls } = harness();
      await queue.add(KEY_USAGE, { keyId: 'first', usedAt: 'x' }, { jobId: 'same' });
      await advance();
      await queue.add(KEY_USAGE, { keyId: 'second', usedAt: 'x' }, { jobId: 'same' });
      await advance();
      expect(calls.map((call) => (call.payload as { keyId: string }).keyId)).toEqual(['first', 'second']);
    });

    it('accepts the ID again once the job used up its attempts', async () => {
      const { queue, calls } = harness({ [KEY_USAGE]: { handle: failing } });
      await queue.add(KEY_USAGE, { keyId: 'first', usedAt: 'x' }, { jobId: 'same', attempts: 1 });
      await advance();
      await queue.add(KEY_USAGE, { keyId: 'second', usedAt: 'x' }, { jobId: 'same', attempts: 1 });
      await advance();
      expect(calls).toHaveLength(2);
    });

    it('never deduplicates jobs without an ID, nor jobs with different IDs', async () => {
      const { queue, calls } = harness();
      await queue.add(KEY_USAGE, { keyId: 'a', usedAt: 'x' });
      await queue.add(KEY_USAGE, { keyId: 'a', usedAt: 'x' });
      await queue.add(KEY_USAGE, { keyId: 'a', usedAt: 'x' }, { jobId: 'one' });
      await queue.add(KEY_USAGE, { keyId: 'a', usedAt: 'x' }, { jobId: 'two' });
      await advance();
      expect(calls).toHaveLength(4);
    });

    it('does not keep the ID of a job whose payload could not be serialised', async () => {
      const { queue, calls } = harness();
      const circular: Record<string, unknown> = { keyId: 'loop', usedAt: 'x' };
      circular['self'] = circular;
      await expect(queue.add(KEY_USAGE, circular as never, { jobId: 'same' })).rejects.toThrow();
      await queue.add(KEY_USAGE, { keyId: 'fine', usedAt: 'x' }, { jobId: 'same' });
      await advance();
      expect(calls).toHaveLength(1);
    });
  });

  describe('concurrency', () => {
    it('never runs more jobs of a name at once than its concurrency, and runs them all', async () => {
      const gates: Deferred[] = [];
      const handle: Handler = () => {
        const gate = deferred();
        gates.push(gate);
        return gate.promise;
      };
      const { queue, calls, running, maxRunning } = harness({ [KEY_USAGE]: { handle, concurrency: 2 } });
      for (let i = 0; i < 7; i++) await queue.add(KEY_USAGE, { keyId: `k${i}`, usedAt: 'x' });
      await advance();
      expect(calls).toHaveLength(2);
      expect(running.get(KEY_USAGE)).toBe(2);

      gates[0]!.resolve();
      await advance();
      expect(calls).toHaveLength(3);
      expect(running.get(KEY_USAGE)).toBe(2);

      gates[1]!.reject(new Error('fails, still frees a slot'));
      await advance();
      expect(calls).toHaveLength(4);

      // Release everything as it starts.
      for (let round = 0; round < 20; round++) {
        for (const gate of gates) gate.resolve();
        await advance(10_000);
      }
      expect(calls.filter((call) => call.context.attempt === 1).map((call) => (call.payload as { keyId: string }).keyId)).toEqual([
        'k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6',
      ]);
      expect(maxRunning.get(KEY_USAGE)).toBe(2);
      expect(running.get(KEY_USAGE)).toBe(0);
    });

    it('runs one at a time with concurrency 1', async () => {
      const handle: Handler = () => new Promise((resolve) => setTimeout(resolve, 100));
      const { queue, calls, maxRunning } = harness({ [PRUNE]: { handle, concurrency: 1 } });
      for (let i = 0; i < 4; i++) await queue.add(PRUNE, {});
      await advance(1_000);
      expect(calls.map((call) => call.at)).toEqual([0, 100, 200, 300]);
      expect(maxRunning.get(PRUNE)).toBe(1);
    });

    it('counts the limit per job name', async () => {
      const gate = deferred();
      const { queue, running } = harness({
        [KEY_USAGE]: { handle: () => gate.promise, concurrency: 1 },
        [PRUNE]: { handle: () => gate.promise, concurrency: 1 },
      });
      await queue.add(KEY_USAGE, { keyId: 'a', usedAt: 'x' });
      await queue.add(PRUNE, {});
      await advance();
      expect(running.get(KEY_USAGE)).toBe(1);
      expect(running.get(PRUNE)).toBe(1);
      gate.resolve();
      await advance();
    });

    it('lets retries wait their turn within the concurrency limit', async () => {
      let first = true;
      const handle: Handler = async () => {
        if (first) {
          first = false;
          throw new Error('once');
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      };
      const { queue, calls, maxRunning } = harness({ [PRUNE]: { handle, concurrency: 1 } });
      await queue.add(PRUNE, {}, { backoff: { type: 'fixed', delayMs: 10 } });
      for (let i = 0; i < 3; i++) await queue.add(PRUNE, {});
      await advance(1_000);
      expect(calls).toHaveLength(5);
      expect(maxRunning.get(PRUNE)).toBe(1);
    });
  });

  describe('whenIdle', () => {
    it('resolves at once when nothing was added', async () => {
      await expect(harness().queue.whenIdle()).resolves.toBeUndefined();
    });

    it('waits for delayed, running and retried jobs', async () => {
      let failures = 1;
      const handle: Handler = async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (failures-- > 0) throw new Error('once');
      };
      const { queue, calls } = harness({ [PRUNE]: { handle } });
      await queue.add(PRUNE, {}, { delayMs: 1_000, backoff: { type: 'fixed', delayMs: 500 } });
      const idle = tracked(queue.whenIdle());
      await advance(999);
      expect(idle.settled).toBe(false);
      await advance(100); // first attempt runs and fails
      expect(calls).toHaveLength(1);
      expect(idle.settled).toBe(false);
      await advance(550); // waiting for the retry
      expect(idle.settled).toBe(false);
      await advance(100); // retry succeeds
      expect(calls).toHaveLength(2);
      expect(idle.settled).toBe(true);
    });

    it('resolves every waiter', async () => {
      const { queue } = harness();
      await queue.add(PRUNE, {}, { delayMs: 10 });
      const waiters = [tracked(queue.whenIdle()), tracked(queue.whenIdle()), tracked(queue.whenIdle())];
      await advance(10);
      expect(waiters.every((waiter) => waiter.settled)).toBe(true);
    });

    it('resolves after a job that used up its attempts', async () => {
      const { queue } = harness({ [PRUNE]: { handle: failing } });
      await queue.add(PRUNE, {}, { attempts: 2, backoff: { type: 'fixed', delayMs: 10 } });
      const idle = tracked(queue.whenIdle());
      await advance(100);
      expect(idle.settled).toBe(true);
    });

    it('resolves pending waiters when shutdown drops the delayed jobs', async () => {
      const { queue } = harness();
      await queue.add(PRUNE, {}, { delayMs: 60_000 });
      const idle = tracked(queue.whenIdle());
      await queue.beforeApplicationShutdown();
      await advance();
      expect(idle.settled).toBe(true);
    });
  });

  describe('shutdown', () => {
    it('runs nothing added after shutdown', async () => {
      const { queue, calls } = harness();
      await queue.beforeApplicationShutdown();
      await queue.add(PRUNE, {});
      await queue.repeat(PRUNE, 1_000, {});
      await advance(10_000);
      expect(calls).toHaveLength(0);
      await expect(queue.whenIdle()).resolves.toBeUndefined();
    });

    it('drops delayed jobs and scheduled retries', async () => {
      const { queue, calls } = harness({ [KEY_USAGE]: { handle: failing } });
      await queue.add(PRUNE, {}, { delayMs: 5_000 });
      await queue.add(KEY_USAGE, { keyId: 'a', usedAt: 'x' }, { backoff: { type: 'fixed', delayMs: 1_000 } });
      await advance();
      expect(calls).toHaveLength(1);
      await queue.beforeApplicationShutdown();
      await advance(60_000);
      expect(calls).toHaveLength(1);
    });

    it('waits for running jobs to settle, and starts no queued ones', async () => {
      const gate = deferred();
      const { queue, calls } = harness({ [PRUNE]: { handle: () => gate.promise, concurrency: 1 } });
      await queue.add(PRUNE, {});
      await queue.add(PRUNE, {});
      await advance();
      expect(calls).toHaveLength(1);
      const shutdown = tracked(queue.beforeApplicationShutdown());
      await advance();
      expect(shutdown.settled).toBe(false);
      gate.resolve();
      await advance();
      expect(shutdown.settled).toBe(true);
      await advance(60_000);
      expect(calls).toHaveLength(1);
    });

    it('does not retry a job that fails during shutdown', async () => {
      const gate = deferred();
      const { queue, calls } = harness({ [PRUNE]: { handle: () => gate.promise } });
      await queue.add(PRUNE, {}, { backoff: { type: 'fixed', delayMs: 1 } });
      await advance();
      const shutdown = queue.beforeApplicationShutdown();
      gate.reject(new Error('interrupted'));
      await shutdown;
      await advance(60_000);
      expect(calls).toHaveLength(1);
    });

    it('stops repeating jobs', async () => {
      const { queue, calls } = harness();
      await queue.repeat(PRUNE, 1_000, {});
      await advance(2_000 + TICK);
      expect(calls).toHaveLength(2);
      await queue.beforeApplicationShutdown();
      await advance(10_000);
      expect(calls).toHaveLength(2);
    });

    it('fails ping after shutdown (readiness)', async () => {
      const { queue } = harness();
      await queue.beforeApplicationShutdown();
      await expect(queue.ping()).rejects.toThrow(/shut down/);
    });

    it('can be shut down twice', async () => {
      const { queue } = harness();
      await queue.beforeApplicationShutdown();
      await expect(queue.beforeApplicationShutdown()).resolves.toBeUndefined();
    });
  });

  describe('repeat', () => {
    it('runs the job every interval, starting one interval from now', async () => {
      const { queue, calls } = harness();
      await queue.repeat(PRUNE, 1_000, {});
      await advance(999);
      expect(calls).toHaveLength(0);
      await advance(1 + TICK);
      expect(calls).toHaveLength(1);
      await advance(2_000);
      expect(calls.map((call) => call.at - (call.at % 1_000))).toEqual([1_000, 2_000, 3_000]);
      expect(calls.every((call) => call.at % 1_000 <= TICK)).toBe(true);
      expect(calls[0]!.context.jobId).toBe(`repeat:${PRUNE}`);
      await queue.beforeApplicationShutdown();
    });

    it('ignores a second schedule for the same name', async () => {
      const { queue, calls } = harness();
      await queue.repeat(PRUNE, 1_000, {});
      await queue.repeat(PRUNE, 100, {});
      await advance(1_000 + TICK);
      expect(calls).toHaveLength(1);
      await queue.beforeApplicationShutdown();
    });

    it('does not pile up runs while one is still going', async () => {
      const gate = deferred();
      const { queue, calls } = harness({ [PRUNE]: { handle: () => gate.promise, concurrency: 4 } });
      await queue.repeat(PRUNE, 1_000, {});
      await advance(5_000);
      expect(calls).toHaveLength(1);
      gate.resolve();
      await advance(1_000 + TICK);
      expect(calls).toHaveLength(2);
      await queue.beforeApplicationShutdown();
    });
  });
});
