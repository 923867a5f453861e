import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import type { Type } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import type { Queue } from 'bullmq';
import {
  AppConfig,
  Clock,
  CoreModule,
  createLogger,
  Database,
  InlineJobQueue,
  type JobContext,
  JobName,
  type JobOptions,
  type JobPayloads,
  JobProcessor,
  JobQueue,
  MissingJobProcessorError,
  PinoNestLogger,
  ProcessesJob,
} from '#core';
import { CreateApiKeyUseCase, ListApiKeysUseCase } from '#gateway';
import { MIGRATIONS } from '#migrations';
import { WorkerModule } from '../../apps/worker/src/worker.module.js';
import { bearer, startTestApp, TEST_ACTOR, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { TEST_APP_SECRET, TEST_REDIS_URL } from '../support/env.js';
import { polling } from '../support/eventually.js';
import { createRedisNamespace } from '../support/redis.js';

// ---------------------------------------------------------------------------------------------------------
// Helpers

// The default retry schedule alone takes 3 s. (jest.config.js sets testTimeout inside each project, where Jest ignores it.)
jest.setTimeout(60_000);

const eventually = polling({ timeoutMs: 20_000, intervalMs: 25 });

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const silentLogger = new PinoNestLogger(createLogger('silent'));

function configFor(databaseUrl: string, dataDir: string, redisPrefix?: string): AppConfig {
  return AppConfig.fromEnv({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    APP_SECRET: TEST_APP_SECRET,
    LOG_LEVEL: 'silent',
    ...(redisPrefix ? { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: redisPrefix } : {}),
  });
}

/**
 * Waits until no job is waiting, delayed or running, whichever adapter the app uses. (Under BullMQ the
 * next run of a periodic job is always delayed; those do not count.)
 */
async function drain(t: TestApp): Promise<void> {
  if (!t.redisPrefix) {
    await t.app.get(InlineJobQueue).whenIdle();
    return;
  }
  const queues = Object.values(JobName).map((name) => t.app.get<Queue>(getQueueToken(name), { strict: false }));
  await eventually(async () => {
    for (const queue of queues) {
      const counts = await queue.getJobCounts('waiting', 'active', 'prioritized', 'waiting-children');
      if (Object.values(counts).some((count) => count > 0)) return false;
      const delayed = await queue.getJobs(['delayed']);
      if (delayed.some((job) => !job.repeatJobKey)) return false;
    }
    return true;
  }, 'the BullMQ queues to drain');
}

// ---------------------------------------------------------------------------------------------------------
// Test processors: one per JobName, as the registry requires.

interface Run {
  readonly keyId: string;
  readonly attempt: number;
  readonly jobId: string | undefined;
  /** performance.now() when the attempt started. */
  readonly at: number;
}

/**
 * Stands in for RecordKeyUsage; `keyId` names the test job. Can be told to fail a number of times, or to
 * hold a job until released, so the queue's behaviour is observable.
 */
@ProcessesJob(JobName.RecordKeyUsage, { concurrency: 2 })
class ScriptedProcessor extends JobProcessor<JobName.RecordKeyUsage> {
  readonly runs: Run[] = [];
  private readonly failures = new Map<string, number>();
  private readonly gates = new Map<string, Promise<void>>();
  private running = 0;
  maxRunning = 0;

  failTimes(keyId: string, times: number): void {
    this.failures.set(keyId, times);
  }

  holdUntil(keyId: string, gate: Promise<void>): void {
    this.gates.set(keyId, gate);
  }

  runsOf(keyId: string): Run[] {
    return this.runs.filter((run) => run.keyId === keyId);
  }

  async handle(payload: JobPayloads[JobName.RecordKeyUsage], context: JobContext): Promise<void> {
    this.runs.push({ keyId: payload.keyId, attempt: context.attempt, jobId: context.jobId, at: performance.now() });
    this.running += 1;
    this.maxRunning = Math.max(this.maxRunning, this.running);
    try {
      const gate = this.gates.get(payload.keyId);
      if (gate) await gate;
      const left = this.failures.get(payload.keyId) ?? 0;
      if (left > 0) {
        this.failures.set(payload.keyId, left - 1);
        throw new Error(`scripted failure of ${payload.keyId}`);
      }
    } finally {
      this.running -= 1;
    }
  }
}

@ProcessesJob(JobName.PruneIdempotencyKeys)
class CountingPruneProcessor extends JobProcessor<JobName.PruneIdempotencyKeys> {
  runs = 0;

  async handle(): Promise<void> {
    this.runs += 1;
  }
}

/** Processors for the jobs these suites do not exercise, so a job-running module starts (each job name needs one). */
@ProcessesJob(JobName.DeliverWebhook)
class IdleDeliverWebhookProcessor extends JobProcessor<JobName.DeliverWebhook> {
  async handle(): Promise<void> {}
}

@ProcessesJob(JobName.PruneWebhookDeliveries)
class IdlePruneWebhookDeliveriesProcessor extends JobProcessor<JobName.PruneWebhookDeliveries> {
  async handle(): Promise<void> {}
}

@ProcessesJob(JobName.RunTask)
class IdleRunTaskProcessor extends JobProcessor<JobName.RunTask> {
  async handle(): Promise<void> {}
}

@ProcessesJob(JobName.RecoverTasks)
class IdleRecoverTasksProcessor extends JobProcessor<JobName.RecoverTasks> {
  async handle(): Promise<void> {}
}

@ProcessesJob(JobName.PruneAdminSessions)
class IdlePruneAdminSessionsProcessor extends JobProcessor<JobName.PruneAdminSessions> {
  async handle(): Promise<void> {}
}

@ProcessesJob(JobName.CompactHelpCenterChanges)
class IdleCompactHelpCenterChangesProcessor extends JobProcessor<JobName.CompactHelpCenterChanges> {
  async handle(): Promise<void> {}
}

const OTHER_JOBS = [IdleCompactHelpCenterChangesProcessor, IdleDeliverWebhookProcessor, IdlePruneWebhookDeliveriesProcessor, IdleRunTaskProcessor, IdleRecoverTasksProcessor, IdlePruneAdminSessionsProcessor];

async function compileModule(
  config: AppConfig,
  providers: Array<Type<unknown>>,
  options: { runsJobs: boolean } = { runsJobs: true },
): Promise<TestingModule> {
  return Test.createTestingModule({
    imports: [CoreModule.forRoot(config, { migrations: MIGRATIONS, migrate: true, runsJobs: options.runsJobs })],
    providers,
  })
    .setLogger(silentLogger)
    .compile();
}

function usage(keyId: string): JobPayloads[JobName.RecordKeyUsage] {
  return { keyId, usedAt: new Date(0).toISOString() };
}

// ---------------------------------------------------------------------------------------------------------
// The real job, end to end through the HTTP API, on both adapters.

describe.each([
  { adapter: 'inline', redis: false },
  { adapter: 'bullmq', redis: true },
])('RecordKeyUsage through the API ($adapter adapter)', ({ redis }) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ redis });
  });
  afterAll(() => t.close());
  afterEach(() => {
    jest.restoreAllMocks();
  });

  async function newKey(): Promise<{ id: string; plain: string }> {
    const created = await t.app.get(CreateApiKeyUseCase).execute({ name: 'usage', scopes: ['content:read'] }, TEST_ACTOR);
    return { id: created.key.id, plain: created.plain };
  }

  async function lastUsedAt(id: string): Promise<Date | null> {
    const keys = await t.app.get(ListApiKeysUseCase).execute();
    const key = keys.find((k) => k.id === id);
    if (!key) throw new Error(`key ${id} not listed`);
    return key.props.lastUsedAt;
  }

  it('uses the expected adapter', () => {
    const queue = t.app.get(JobQueue);
    expect(queue instanceof InlineJobQueue).toBe(!redis);
  });

  it("an authenticated request sets the key's lastUsedAt through the job", async () => {
    const key = await newKey();
    expect(await lastUsedAt(key.id)).toBeNull();
    const usedAt = new Date('2031-03-04T05:06:07.890Z');
    jest.spyOn(t.app.get(Clock), 'now').mockReturnValue(usedAt);
    const add = jest.spyOn(t.app.get(JobQueue), 'add');

    await t.http.get('/v1/sections').set(bearer(key.plain)).expect(200);

    expect(add).toHaveBeenCalledWith(JobName.RecordKeyUsage, { keyId: key.id, usedAt: usedAt.toISOString() }, expect.objectContaining({ jobId: expect.any(String) }));
    const recorded = await eventually(async () => (await lastUsedAt(key.id)) ?? undefined, 'lastUsedAt to be recorded');
    expect(recorded.toISOString()).toBe(usedAt.toISOString());
    // Also as stored, read with SQL.
    const rows: Array<{ last_used_at: Date }> = await t.app.get(Database).manager.query('SELECT last_used_at FROM api_keys WHERE id = $1', [key.id]);
    expect(rows[0]!.last_used_at.toISOString()).toBe(usedAt.toISOString());
  });

  it('queues at most one job per key and minute, and moves lastUsedAt forward in the next minute', async () => {
    const key = await newKey();
    const clock = jest.spyOn(t.app.get(Clock), 'now');
    const add = jest.spyOn(t.app.get(JobQueue), 'add');
    const first = new Date('2031-05-01T10:00:05.000Z');
    clock.mockReturnValue(first);
    await t.http.get('/v1/sections').set(bearer(key.plain)).expect(200);
    clock.mockReturnValue(new Date('2031-05-01T10:00:40.000Z'));
    await t.http.get('/v1/sections').set(bearer(key.plain)).expect(200);
    const usageJobs = () => add.mock.calls.filter(([name, payload]) => name === JobName.RecordKeyUsage && (payload as { keyId: string }).keyId === key.id);
    expect(usageJobs()).toHaveLength(1);
    await eventually(async () => (await lastUsedAt(key.id))?.toISOString() === first.toISOString(), 'first usage recorded');

    const next = new Date('2031-05-01T10:01:02.000Z');
    clock.mockReturnValue(next);
    await t.http.get('/v1/sections').set(bearer(key.plain)).expect(200);
    expect(usageJobs()).toHaveLength(2);
    await eventually(async () => (await lastUsedAt(key.id))?.toISOString() === next.toISOString(), 'next minute recorded');
  });

  it('never moves lastUsedAt backwards (a late job with an older time changes nothing)', async () => {
    const key = await newKey();
    const recent = new Date('2031-06-01T12:00:00.000Z');
    jest.spyOn(t.app.get(Clock), 'now').mockReturnValue(recent);
    await t.http.get('/v1/sections').set(bearer(key.plain)).expect(200);
    await eventually(async () => (await lastUsedAt(key.id))?.toISOString() === recent.toISOString(), 'usage recorded');

    await t.app.get(JobQueue).add(JobName.RecordKeyUsage, { keyId: key.id, usedAt: '2031-01-01T00:00:00.000Z' }, { jobId: `late-${key.id}` });
    await drain(t);
    expect((await lastUsedAt(key.id))?.toISOString()).toBe(recent.toISOString());
  });

  it('a failed authentication records nothing', async () => {
    const add = jest.spyOn(t.app.get(JobQueue), 'add');
    await t.http.get('/v1/sections').set(bearer(`hck_${'x'.repeat(43)}`)).expect(401);
    expect(add).not.toHaveBeenCalled();
  });
});

// ---------------------------------------------------------------------------------------------------------
// The in-process adapter: delays, retries with backoff, job-ID deduplication, concurrency.

describe('InlineJobQueue (processor level)', () => {
  let database: TestDatabase;
  let dataDir: string;
  let moduleRef: TestingModule;
  let queue: InlineJobQueue;
  let processor: ScriptedProcessor;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'hc-jobs-'));
    moduleRef = await compileModule(configFor(database.url, dataDir), [ScriptedProcessor, CountingPruneProcessor, ...OTHER_JOBS]);
    await moduleRef.init();
    queue = moduleRef.get(InlineJobQueue);
    processor = moduleRef.get(ScriptedProcessor);
    expect(moduleRef.get(JobQueue)).toBe(queue);
  });
  afterAll(async () => {
    await moduleRef?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  afterEach(() => queue.whenIdle());

  it('runs a job added without options once, on attempt 1, with its job ID', async () => {
    await queue.add(JobName.RecordKeyUsage, usage('plain'), { jobId: 'plain-1' });
    await queue.whenIdle();
    expect(processor.runsOf('plain')).toEqual([expect.objectContaining({ attempt: 1, jobId: 'plain-1' })]);
  });

  it('does not run a delayed job before it is due, and runs it once it is', async () => {
    const delayMs = 1_000;
    const addedAt = performance.now();
    await queue.add(JobName.RecordKeyUsage, usage('delayed'), { delayMs });
    await queue.add(JobName.RecordKeyUsage, usage('immediate'));
    // The undelayed job added after it runs first...
    await eventually(() => processor.runsOf('immediate').length === 1, 'the undelayed job to run');
    expect(processor.runsOf('delayed')).toHaveLength(0);
    // ...and the delayed one only once its delay has passed (a few ms of slack for timer granularity).
    await queue.whenIdle();
    const [run] = processor.runsOf('delayed');
    expect(run).toBeDefined();
    expect(run!.at - addedAt).toBeGreaterThanOrEqual(delayMs - 50);
  });

  it('retries a failing job with backoff: fails twice, then succeeds on the third attempt', async () => {
    processor.failTimes('flaky', 2);
    await queue.add(JobName.RecordKeyUsage, usage('flaky'), { jobId: 'flaky-1', attempts: 3, backoff: { type: 'fixed', delayMs: 200 } });
    await queue.whenIdle();
    const runs = processor.runsOf('flaky');
    expect(runs.map((run) => run.attempt)).toEqual([1, 2, 3]);
    expect(runs.every((run) => run.jobId === 'flaky-1')).toBe(true);
    // Each retry waits for its backoff.
    expect(runs[1]!.at - runs[0]!.at).toBeGreaterThanOrEqual(200 - 50);
    expect(runs[2]!.at - runs[1]!.at).toBeGreaterThanOrEqual(200 - 50);
  });

  it('uses exponential backoff when asked (delay, then twice the delay)', async () => {
    processor.failTimes('exp', 2);
    await queue.add(JobName.RecordKeyUsage, usage('exp'), { attempts: 3, backoff: { type: 'exponential', delayMs: 150 } });
    await queue.whenIdle();
    const runs = processor.runsOf('exp');
    expect(runs.map((run) => run.attempt)).toEqual([1, 2, 3]);
    expect(runs[1]!.at - runs[0]!.at).toBeGreaterThanOrEqual(150 - 50);
    expect(runs[2]!.at - runs[1]!.at).toBeGreaterThanOrEqual(300 - 50);
  });

  it('retries 3 times in all by default (exponential from 1 s)', async () => {
    processor.failTimes('defaults', 10);
    await queue.add(JobName.RecordKeyUsage, usage('defaults'));
    await queue.whenIdle();
    const runs = processor.runsOf('defaults');
    expect(runs.map((run) => run.attempt)).toEqual([1, 2, 3]);
    expect(runs[1]!.at - runs[0]!.at).toBeGreaterThanOrEqual(1_000 - 50);
    expect(runs[2]!.at - runs[1]!.at).toBeGreaterThanOrEqual(2_000 - 50);
  });

  it('gives up after the last attempt and frees the job ID', async () => {
    processor.failTimes('doomed', 100);
    const options: JobOptions = { jobId: 'doomed-1', attempts: 2, backoff: { type: 'fixed', delayMs: 10 } };
    await queue.add(JobName.RecordKeyUsage, usage('doomed'), options);
    await queue.whenIdle();
    expect(processor.runsOf('doomed').map((run) => run.attempt)).toEqual([1, 2]);
    // The ID is free again: the same job can be added anew.
    await queue.add(JobName.RecordKeyUsage, usage('doomed'), options);
    await queue.whenIdle();
    expect(processor.runsOf('doomed').map((run) => run.attempt)).toEqual([1, 2, 1, 2]);
  });

  it('deduplicates by job ID while the job waits', async () => {
    await queue.add(JobName.RecordKeyUsage, usage('dedup-waiting'), { jobId: 'dedup-1', delayMs: 200 });
    await queue.add(JobName.RecordKeyUsage, usage('dedup-waiting'), { jobId: 'dedup-1', delayMs: 200 });
    await queue.add(JobName.RecordKeyUsage, usage('dedup-waiting'), { jobId: 'dedup-1' });
    await queue.whenIdle();
    expect(processor.runsOf('dedup-waiting')).toHaveLength(1);
  });

  it('deduplicates by job ID while the job runs, and accepts the ID again once it is done', async () => {
    const gate = deferred();
    processor.holdUntil('dedup-running', gate.promise);
    await queue.add(JobName.RecordKeyUsage, usage('dedup-running'), { jobId: 'dedup-2' });
    await eventually(() => processor.runsOf('dedup-running').length === 1, 'the job to start');
    await queue.add(JobName.RecordKeyUsage, usage('dedup-running'), { jobId: 'dedup-2' });
    gate.resolve();
    await queue.whenIdle();
    expect(processor.runsOf('dedup-running')).toHaveLength(1);

    await queue.add(JobName.RecordKeyUsage, usage('dedup-running'), { jobId: 'dedup-2' });
    await queue.whenIdle();
    expect(processor.runsOf('dedup-running')).toHaveLength(2);
  });

  it('runs jobs with different IDs independently', async () => {
    await queue.add(JobName.RecordKeyUsage, usage('distinct'), { jobId: 'distinct-1' });
    await queue.add(JobName.RecordKeyUsage, usage('distinct'), { jobId: 'distinct-2' });
    await queue.whenIdle();
    expect(processor.runsOf('distinct').map((run) => run.jobId).sort()).toEqual(['distinct-1', 'distinct-2']);
  });

  it("runs at most the processor's declared concurrency at once", async () => {
    const gate = deferred();
    processor.maxRunning = 0;
    for (const id of ['conc-a', 'conc-b', 'conc-c']) processor.holdUntil(id, gate.promise);
    for (const id of ['conc-a', 'conc-b', 'conc-c']) await queue.add(JobName.RecordKeyUsage, usage(id));
    await eventually(() => processor.runs.filter((run) => run.keyId.startsWith('conc-')).length === 2, 'two jobs to start');
    expect(processor.runs.filter((run) => run.keyId.startsWith('conc-'))).toHaveLength(2);
    gate.resolve();
    await queue.whenIdle();
    expect(processor.runs.filter((run) => run.keyId.startsWith('conc-'))).toHaveLength(3);
    expect(processor.maxRunning).toBe(2);
  });

  it('routes each job name to its own processor', async () => {
    const before = moduleRef.get(CountingPruneProcessor).runs;
    await queue.add(JobName.PruneIdempotencyKeys, {});
    await queue.whenIdle();
    expect(moduleRef.get(CountingPruneProcessor).runs).toBe(before + 1);
  });
});

// ---------------------------------------------------------------------------------------------------------
// The BullMQ adapter.

describe('BullmqJobQueue (processor level)', () => {
  let database: TestDatabase;
  let dataDir: string;
  let namespace: ReturnType<typeof createRedisNamespace>;
  let moduleRef: TestingModule;
  let jobs: JobQueue;
  let queue: Queue;
  let processor: ScriptedProcessor;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'hc-jobs-'));
    namespace = createRedisNamespace();
    moduleRef = await compileModule(configFor(database.url, dataDir, namespace.prefix), [ScriptedProcessor, CountingPruneProcessor, ...OTHER_JOBS]);
    await moduleRef.init();
    jobs = moduleRef.get(JobQueue);
    queue = moduleRef.get<Queue>(getQueueToken(JobName.RecordKeyUsage), { strict: false });
    processor = moduleRef.get(ScriptedProcessor);
    expect(jobs).not.toBeInstanceOf(InlineJobQueue);
  });
  afterAll(async () => {
    await moduleRef?.close();
    await namespace?.cleanup();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function stateOf(jobId: string): Promise<string> {
    const job = await queue.getJob(jobId);
    return job ? job.getState() : 'missing';
  }

  it('retries a job added with a delay and attempts: delayed first, then fails twice and succeeds', async () => {
    processor.failTimes('bull-flaky', 2);
    const addedAt = performance.now();
    await jobs.add(JobName.RecordKeyUsage, usage('bull-flaky'), {
      jobId: 'bull-flaky-1',
      delayMs: 500,
      attempts: 3,
      backoff: { type: 'fixed', delayMs: 100 },
    });
    // Stored as delayed in Redis: not run before it is due.
    expect(await stateOf('bull-flaky-1')).toBe('delayed');
    expect(processor.runsOf('bull-flaky')).toHaveLength(0);

    await eventually(async () => (await stateOf('bull-flaky-1')) === 'completed', 'the job to complete');
    const runs = processor.runsOf('bull-flaky');
    expect(runs.map((run) => run.attempt)).toEqual([1, 2, 3]);
    expect(runs.every((run) => run.jobId === 'bull-flaky-1')).toBe(true);
    expect(runs[0]!.at - addedAt).toBeGreaterThanOrEqual(500 - 50);
    const job = await queue.getJob('bull-flaky-1');
    expect(job!.attemptsMade).toBe(3);
    expect(job!.opts).toMatchObject({ attempts: 3, backoff: { type: 'fixed', delay: 100 } });
  });

  it('fails a job for good after its attempts', async () => {
    processor.failTimes('bull-doomed', 100);
    await jobs.add(JobName.RecordKeyUsage, usage('bull-doomed'), { jobId: 'bull-doomed-1', attempts: 2, backoff: { type: 'fixed', delayMs: 50 } });
    await eventually(async () => (await stateOf('bull-doomed-1')) === 'failed', 'the job to fail');
    expect(processor.runsOf('bull-doomed').map((run) => run.attempt)).toEqual([1, 2]);
    expect((await queue.getJob('bull-doomed-1'))!.failedReason).toContain('scripted failure');
  });

  it('uses 3 attempts with exponential backoff from 1 s by default', async () => {
    await jobs.add(JobName.RecordKeyUsage, usage('bull-defaults'), { jobId: 'bull-defaults-1', delayMs: 60_000 });
    const job = await queue.getJob('bull-defaults-1');
    expect(job!.opts).toMatchObject({ attempts: 3, backoff: { type: 'exponential', delay: 1_000 }, delay: 60_000 });
    await job!.remove();
  });

  it('deduplicates by job ID while the job waits', async () => {
    await jobs.add(JobName.RecordKeyUsage, usage('bull-dedup-first'), { jobId: 'bull-dedup-1', delayMs: 60_000 });
    await jobs.add(JobName.RecordKeyUsage, usage('bull-dedup-second'), { jobId: 'bull-dedup-1', delayMs: 60_000 });
    const delayed = (await queue.getJobs(['delayed'])).filter((job) => job.id === 'bull-dedup-1');
    expect(delayed).toHaveLength(1);
    expect(delayed[0]!.data.keyId).toBe('bull-dedup-first');
    await delayed[0]!.remove();
  });

  it('routes each job name to its own processor', async () => {
    const before = moduleRef.get(CountingPruneProcessor).runs;
    await jobs.add(JobName.PruneIdempotencyKeys, {});
    await eventually(() => moduleRef.get(CountingPruneProcessor).runs === before + 1, 'the prune processor to run');
  });
});

// ---------------------------------------------------------------------------------------------------------
// Start-up refuses a job name without a processor.

describe.each([
  { adapter: 'inline', redis: false },
  { adapter: 'bullmq', redis: true },
])('job processor registry ($adapter adapter)', ({ redis }) => {
  let database: TestDatabase;
  let dataDir: string;
  let namespace: ReturnType<typeof createRedisNamespace> | undefined;
  let config: AppConfig;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'hc-jobs-'));
    namespace = redis ? createRedisNamespace() : undefined;
    config = configFor(database.url, dataDir, namespace?.prefix);
  });
  afterAll(async () => {
    await namespace?.cleanup();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a process that runs jobs refuses to start when a job name has no processor', async () => {
    const moduleRef = await compileModule(config, [CountingPruneProcessor]);
    try {
      const init = moduleRef.init();
      await expect(init).rejects.toBeInstanceOf(MissingJobProcessorError);
      await expect(init).rejects.toThrow(JobName.RecordKeyUsage);
    } finally {
      await moduleRef.close();
    }
  });

  it('a process that does not run jobs starts without processors', async () => {
    const moduleRef = await compileModule(config, [], { runsJobs: false });
    try {
      await expect(moduleRef.init()).resolves.toBeDefined();
    } finally {
      await moduleRef.close();
    }
  });

  it("the worker's processors cover every job name", async () => {
    const moduleRef = await Test.createTestingModule({ imports: [WorkerModule.forRoot(config)] }).setLogger(silentLogger).compile();
    try {
      await expect(moduleRef.init()).resolves.toBeDefined();
    } finally {
      await moduleRef.close();
    }
  });
});
