import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import { ALL_JOB_NAMES, JobName } from './job-name.js';
import { JOB_CONCURRENCY_METADATA, JOB_NAME_METADATA, JobProcessor } from './job-processor.js';

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
      this.processors.set(name, { processor: instance, concurrency });
    }
    if (!this.options.runsJobs) return;
    const missing = ALL_JOB_NAMES.filter((name) => !this.processors.has(name));
    if (missing.length > 0) throw new MissingJobProcessorError(missing);
  }

  get(name: JobName): RegisteredProcessor {
    const registered = this.processors.get(name);
    if (!registered) throw new MissingJobProcessorError([name]);
    return registered;
  }
}
