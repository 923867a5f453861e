import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import { ALL_JOB_NAMES, JobName } from './job-name.js';
import { JOB_CONCURRENCY_METADATA, JOB_NAME_METADATA, JOB_REPEAT_METADATA, JobProcessor } from './job-processor.js';
import { JobQueue } from './job-queue.port.js';

/** Injection token of the JobsModule options. */
export const JOBS_OPTIONS = Symbol('JOBS_OPTIONS');

export class MissingJobProcessorError extends Error {
  constructor(missing: readonly string[]) {
    super(`No processor registered for job(s): ${missing.join(', ')}. Refusing to start.`);
    this.name = 'MissingJobProcessorError';
  }
}

export interface RegisteredProcessor {
  readonly processor: JobProcessor;
  readonly concurrency: number;
  /** Set for a periodic job (see `ProcessesJob`). */
  readonly repeatEveryMs: number | undefined;
}

/**
 * The processors of this process, found by their @ProcessesJob metadata. In a process that runs jobs
 * it fails start-up when a job name has no processor or two.
 */
@Injectable()
export class JobProcessorRegistry implements OnModuleInit {
  private readonly processors = new Map<JobName, RegisteredProcessor>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
    @Inject(JOBS_OPTIONS) private readonly options: { readonly runsJobs: boolean },
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!(instance instanceof JobProcessor)) continue;
      const name = this.reflector.get<JobName | undefined>(JOB_NAME_METADATA, instance.constructor);
      if (!name) continue;
      if (this.processors.has(name)) throw new Error(`Two processors registered for job ${name}`);
      const concurrency = this.reflector.get<number>(JOB_CONCURRENCY_METADATA, instance.constructor) ?? 1;
      const repeatEveryMs = this.reflector.get<number | undefined>(JOB_REPEAT_METADATA, instance.constructor);
      this.processors.set(name, { processor: instance, concurrency, repeatEveryMs });
    }
    if (!this.options.runsJobs) return;
    const missing = ALL_JOB_NAMES.filter((name) => !this.processors.has(name));
    if (missing.length > 0) throw new MissingJobProcessorError(missing);
  }

  /** The periodic jobs among this process's processors. */
  periodic(): Array<{ name: JobName; everyMs: number }> {
    return [...this.processors].flatMap(([name, { repeatEveryMs }]) => (repeatEveryMs ? [{ name, everyMs: repeatEveryMs }] : []));
  }

  get(name: JobName): RegisteredProcessor {
    const registered = this.processors.get(name);
    if (!registered) throw new MissingJobProcessorError([name]);
    return registered;
  }
}

/** Declares the periodic jobs when a process that runs jobs starts (idempotent across processes). */
@Injectable()
export class JobSchedules implements OnApplicationBootstrap {
  private readonly logger = new Logger('JobSchedules');

  constructor(
    private readonly registry: JobProcessorRegistry,
    private readonly jobs: JobQueue,
    @Inject(JOBS_OPTIONS) private readonly options: { readonly runsJobs: boolean },
  ) {}

  /** Not awaited: with Redis down the schedule is declared once it is back, and start-up does not wait for it. */
  onApplicationBootstrap(): void {
    if (!this.options.runsJobs) return;
    Promise.all(this.registry.periodic().map(({ name, everyMs }) => this.jobs.repeat(name, everyMs, {} as never))).catch((error: unknown) => {
      this.logger.warn(`Could not schedule periodic jobs: ${(error as Error).message}`);
    });
  }
}
