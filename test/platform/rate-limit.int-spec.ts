import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Redis } from 'ioredis';
import type { Response } from 'supertest';
import { Clock } from '#core';
import { CreateApiKeyUseCase, RateLimiter } from '#gateway';
import { RedisRateLimiter } from '../../libs/gateway/src/rate-limit/redis-rate-limiter.adapter.js';
import { MemoryRateLimiter } from '../../libs/gateway/src/rate-limit/memory-rate-limiter.adapter.js';
import { bearer, startTestApp, TEST_ACTOR, type TestApp } from '../support/app.js';
import { TEST_REDIS_URL } from '../support/env.js';
import { errorBody } from '../support/errors.js';
import { closedPort } from '../support/ports.js';

jest.setTimeout(60_000);

const LIMIT = 5;
const ENV = { RATE_LIMIT_REQUESTS_PER_MINUTE: String(LIMIT) };
/** A fixed instant 10 s into a one-minute window, so Retry-After and the reset time are exact. */
const WINDOW_START = Date.UTC(2031, 0, 1, 9, 30, 0);
const NOW = new Date(WINDOW_START + 10_000);

function freezeClock(t: TestApp, at: Date = NOW) {
  return jest.spyOn(t.app.get(Clock), 'now').mockReturnValue(at);
}

async function newKey(t: TestApp): Promise<{ id: string; plain: string }> {
  const created = await t.app.get(CreateApiKeyUseCase).execute({ name: 'rate', scopes: ['content:read'] }, TEST_ACTOR);
  return { id: created.key.id, plain: created.plain };
}

function expectAllowed(res: Response, remaining: number): void {
  expect(res.status).toBe(200);
  expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
  expect(res.headers['x-ratelimit-remaining']).toBe(String(remaining));
  expect(res.headers['x-ratelimit-reset']).toBe(String((WINDOW_START + 60_000) / 1000));
  expect(res.headers['ratelimit-policy']).toBe(`"default";q=${LIMIT};w=60`);
  expect(res.headers['ratelimit']).toBe(`"default";r=${remaining};t=50`);
  expect(res.headers['retry-after']).toBeUndefined();
}

function expectLimited(res: Response): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual(errorBody('rate_limited'));
  expect(res.headers['retry-after']).toBe('50');
  expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
  expect(res.headers['x-ratelimit-remaining']).toBe('0');
  expect(res.headers['ratelimit']).toBe(`"default";r=0;t=50`);
}

describe.each([
  { limiter: 'memory', redis: false },
  { limiter: 'redis', redis: true },
])('default per-key limit ($limiter limiter)', ({ redis }) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ redis, env: ENV });
  });
  afterAll(() => t.close());
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it(`uses the ${redis ? 'Redis' : 'in-memory'} limiter`, () => {
    expect(t.app.get(RateLimiter)).toBeInstanceOf(redis ? RedisRateLimiter : MemoryRateLimiter);
  });

  it(`lets ${LIMIT} requests through in a window and answers the next with 429 rate_limited and Retry-After`, async () => {
    freezeClock(t);
    const key = await newKey(t);
    for (let i = 1; i <= LIMIT; i++) {
      expectAllowed(await t.http.get('/v1/sections').set(bearer(key.plain)), LIMIT - i);
    }
    expectLimited(await t.http.get('/v1/sections').set(bearer(key.plain)));
    // Still limited for the rest of the window.
    expectLimited(await t.http.get('/v1/collections').set(bearer(key.plain)));
  });

  it('opens again in the next window', async () => {
    const clock = freezeClock(t);
    const key = await newKey(t);
    for (let i = 0; i < LIMIT; i++) await t.http.get('/v1/sections').set(bearer(key.plain)).expect(200);
    expectLimited(await t.http.get('/v1/sections').set(bearer(key.plain)));
    clock.mockReturnValue(new Date(WINDOW_START + 60_000));
    const res = await t.http.get('/v1/sections').set(bearer(key.plain)).expect(200);
    expect(res.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
    expect(res.headers['ratelimit']).toBe(`"default";r=${LIMIT - 1};t=60`);
  });

  it('gives every API key its own budget', async () => {
    freezeClock(t);
    const first = await newKey(t);
    const second = await newKey(t);
    for (let i = 0; i < LIMIT; i++) await t.http.get('/v1/sections').set(bearer(first.plain)).expect(200);
    expectLimited(await t.http.get('/v1/sections').set(bearer(first.plain)));
    expectAllowed(await t.http.get('/v1/sections').set(bearer(second.plain)), LIMIT - 1);
  });

  it('does not count rejected keys, and does not limit the public probes', async () => {
    freezeClock(t);
    for (let i = 0; i < LIMIT * 2; i++) await t.http.get('/v1/sections').set(bearer(`hck_${'y'.repeat(43)}`)).expect(401);
    for (let i = 0; i < LIMIT * 2; i++) {
      const res = await t.http.get('/healthz').expect(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });

  if (redis) {
    it('keeps the counter in Redis under the deployment prefix', async () => {
      freezeClock(t);
      const key = await newKey(t);
      for (let i = 0; i < 3; i++) await t.http.get('/v1/sections').set(bearer(key.plain)).expect(200);
      const client = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
      try {
        expect(await client.get(`${t.redisPrefix}:ratelimit:default:${key.id}:${WINDOW_START}`)).toBe('3');
        // The counter expires shortly after its window.
        const ttl = await client.pttl(`${t.redisPrefix}:ratelimit:default:${key.id}:${WINDOW_START}`);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(61_000);
      } finally {
        client.disconnect();
      }
    });
  }
});

describe('two API processes on the same database and Redis', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await startTestApp({ redis: true, env: ENV });
    b = await startTestApp({ databaseUrl: a.databaseUrl!, redisPrefix: a.redisPrefix!, env: ENV });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('share ONE budget per key', async () => {
    freezeClock(a);
    freezeClock(b);
    expect(b.app.get(RateLimiter)).toBeInstanceOf(RedisRateLimiter);
    const key = await newKey(a);
    const apps = [a, b, a, b, a];
    for (const [i, app] of apps.entries()) {
      expectAllowed(await app.http.get('/v1/sections').set(bearer(key.plain)), LIMIT - 1 - i);
    }
    expectLimited(await b.http.get('/v1/sections').set(bearer(key.plain)));
    expectLimited(await a.http.get('/v1/sections').set(bearer(key.plain)));
  });
});

/** The promise's value, or 'hung' when it does not settle within `ms` (a generous deadline, not a timing assertion). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Parses one RESP array of bulk strings from the start of `input`; undefined while incomplete. */
function readCommand(input: string): { args: string[]; length: number } | undefined {
  const header = /^\*(\d+)\r\n/.exec(input);
  if (!header) return undefined;
  let offset = header[0].length;
  const args: string[] = [];
  for (let i = 0; i < Number(header[1]); i++) {
    const bulk = /^\$(\d+)\r\n/.exec(input.slice(offset));
    if (!bulk) return undefined;
    const start = offset + bulk[0].length;
    const end = start + Number(bulk[1]);
    if (input.length < end + 2) return undefined;
    args.push(input.slice(start, end));
    offset = end + 2;
  }
  return { args, length: offset };
}

describe('Redis unreachable: fail open', () => {
  let t: TestApp;
  /** Nothing listens there. */
  let deadPort: number;

  beforeAll(async () => {
    t = await startTestApp({ redis: true, env: ENV });
    deadPort = await closedPort();
  });
  afterAll(() => t.close());
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('the limiter lets every request through when Redis cannot be reached', async () => {
    const limiter = new RedisRateLimiter(`redis://127.0.0.1:${deadPort}`, 'hc-closed');
    try {
      for (let i = 0; i < LIMIT * 3; i++) {
        const state = await limiter.consume('default:key_x', LIMIT, 60_000, NOW.getTime());
        expect(state).toEqual({ allowed: true, limit: LIMIT, remaining: LIMIT, resetAt: WINDOW_START + 60_000 });
      }
    } finally {
      await limiter.onApplicationShutdown();
    }
  });

  it('requests through the API are served, not rejected, when the counters are unreachable', async () => {
    const dead = new RedisRateLimiter(`redis://127.0.0.1:${deadPort}`, 'hc-closed');
    try {
      jest.spyOn(t.app.get(RateLimiter), 'consume').mockImplementation((...args) => dead.consume(...args));
      freezeClock(t);
      const key = await newKey(t);
      for (let i = 0; i < LIMIT * 2; i++) {
        const res = await t.http.get('/v1/sections').set(bearer(key.plain));
        expect(res.status).toBe(200);
        expect(res.headers['x-ratelimit-remaining']).toBe(String(LIMIT));
      }
    } finally {
      await dead.onApplicationShutdown();
    }
  });

  describe('a Redis that accepts the connection but stops answering', () => {
    let server: Server;
    let port: number;
    const sockets = new Set<Socket>();

    beforeAll(async () => {
      // Speaks just enough RESP to get an ioredis client ready (CLIENT SETINFO, INFO), then never answers
      // again: a Redis behind a network partition.
      server = createServer((socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => undefined);
        let buffered = '';
        socket.on('data', (chunk) => {
          buffered += chunk.toString('latin1');
          for (;;) {
            const command = readCommand(buffered);
            if (!command) break;
            buffered = buffered.slice(command.length);
            const name = command.args[0]?.toLowerCase();
            if (name === 'client') socket.write('+OK\r\n');
            else if (name === 'info') {
              const info = '# Server\r\nredis_version:7.0.0\r\nloading:0\r\n';
              socket.write(`$${Buffer.byteLength(info)}\r\n${info}\r\n`);
            }
          }
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('does not hang the request: the limiter gives up and lets it through', async () => {
      const limiter = new RedisRateLimiter(`redis://127.0.0.1:${port}`, 'hc-stalled');
      try {
        // Wait until the client counts as connected, so the command really goes out to the silent server.
        const client = (limiter as unknown as { redis: Redis }).redis;
        const deadline = Date.now() + 10_000;
        while (client.status !== 'ready') {
          if (Date.now() > deadline) throw new Error(`the client never got ready (status ${client.status})`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        const outcome = await within(limiter.consume('default:key_y', LIMIT, 60_000, NOW.getTime()), 15_000);
        expect(outcome).toEqual({ allowed: true, limit: LIMIT, remaining: LIMIT, resetAt: WINDOW_START + 60_000 });
      } finally {
        // Shutting down must not hang on the silent server either (QUIT gets no answer).
        const shutdown = await within(limiter.onApplicationShutdown().then(() => 'closed' as const), 15_000);
        expect(shutdown).toBe('closed');
      }
    });
  });
});
