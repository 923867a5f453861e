import { type DynamicModule, Module } from '@nestjs/common';
import { type AppConfig, CoreModule } from '#core';
import { ContentModule } from '#content';
import { MIGRATIONS } from '#migrations';
import { JobProcessorsModule } from './job-processors.module.js';

/** The worker process: the same domain modules as the API, no HTTP, every job processor. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        CoreModule.forRoot(config, { migrations: MIGRATIONS, migrate: true, runsJobs: true, attachToRunningEmbedded: true }),
        ContentModule,
        JobProcessorsModule,
      ],
    };
  }
}
