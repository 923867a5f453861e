import { type DynamicModule, Module } from '@nestjs/common';
import { type AppConfig, CoreModule } from '#core';
import { AdminModule } from '#admin';
import { GatewayModule } from '#gateway';
import { MIGRATIONS } from '#migrations';

/** What the CLI needs: configuration, database, API keys and admins. No HTTP, no job processing. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig, options: { migrate: boolean }): DynamicModule {
    return {
      module: CliModule,
      imports: [
        CoreModule.forRoot(config, { migrations: MIGRATIONS, migrate: options.migrate, runsJobs: false, attachToRunningEmbedded: true }),
        GatewayModule,
        AdminModule,
      ],
    };
  }
}
