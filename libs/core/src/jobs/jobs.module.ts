import { BullModule, getQueueToken } from '@nestjs/bullmq';
import { type DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { AppConfig } from '../config/app-config.js';
import { BULLMQ_QUEUE_OPTIONS, BullmqJobQueue } from './bullmq-job-queue.adapter.js';
import { InlineJobQueue } from './inline-job-queue.adapter.js';
import { ALL_JOB_NAMES } from './job-name.js';
import { JobQueue } from './job-queue.port.js';
import { JOBS_OPTIONS, JobProcessorRegistry, JobSchedules } from './job-processor.registry.js';

export interface JobsModuleOptions {
  /**
   * This process runs jobs (embedded `npm start`, the worker). With REDIS_URL the processors given to the
   * process become BullMQ workers; without it every process runs its jobs in-process.
   */
  readonly runsJobs: boolean;
}

/** Binds the JobQueue port: BullMQ on Redis when REDIS_URL is set, the in-process queue otherwise. */
@Module({})
export class JobsModule {
  static forRoot(config: AppConfig, options: JobsModuleOptions): DynamicModule {
    if (config.redis.url) {
      const queueOptions = { connection: { url: config.redis.url }, prefix: config.redis.prefix };
      return {
        module: JobsModule,
        global: true,
        // BullModule.forRoot gives the worker's processors their connection, and registerQueue() without queues
        // brings in the explorer that turns @Processor classes into workers. The queues are the adapter's own,
        // registered under @nestjs/bullmq's tokens so the processors bind to them.
        imports: [DiscoveryModule, BullModule.forRoot(queueOptions), BullModule.registerQueue()],
        providers: [
          { provide: JOBS_OPTIONS, useValue: options },
          { provide: BULLMQ_QUEUE_OPTIONS, useValue: queueOptions },
          BullmqJobQueue,
          { provide: JobQueue, useExisting: BullmqJobQueue },
          ...ALL_JOB_NAMES.map((name) => ({ provide: getQueueToken(name), inject: [BullmqJobQueue], useFactory: (q: BullmqJobQueue) => q.queue(name) })),
          JobProcessorRegistry,
          JobSchedules,
        ],
        exports: [JobQueue, BullmqJobQueue, ...ALL_JOB_NAMES.map((name) => getQueueToken(name))],
      };
    }
    return {
      module: JobsModule,
      global: true,
      imports: [DiscoveryModule],
      providers: [{ provide: JOBS_OPTIONS, useValue: options }, JobProcessorRegistry, JobSchedules, InlineJobQueue, { provide: JobQueue, useExisting: InlineJobQueue }],
      exports: [JobQueue, InlineJobQueue],
    };
  }
}
