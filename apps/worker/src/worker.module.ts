import { type DynamicModule, Module } from '@nestjs/common';
import { type AppConfig, CoreModule } from '#core';
import { ContentJobsModule, ContentModule } from '#content';
import { AdminJobsModule } from '#admin';
import { GatewayJobsModule } from '#gateway';
import { TasksJobsModule } from '#tasks';
import { WebhooksJobsModule } from '#webhooks';
import { MIGRATIONS } from '#migrations';

/** The worker process: the same domain modules as the API, no HTTP, every job processor. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        CoreModule.forRoot(config, { migrations: MIGRATIONS, migrate: true, runsJobs: true, attachToRunningEmbedded: true }),
        ContentModule,
        // One processor per job name; the embedded API (apps/api/src/api.module.ts) loads the same five.
        GatewayJobsModule,
        ContentJobsModule,
        AdminJobsModule,
        TasksJobsModule,
        WebhooksJobsModule,
      ],
    };
  }
}
