import { type DynamicModule, Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { Database, type Migration } from './database.js';
import { TransactionHost, UnitOfWork } from './transaction.js';

export interface DatabaseModuleOptions {
  readonly migrations: readonly Migration[];
  readonly migrate: boolean;
  readonly attachToRunningEmbedded?: boolean;
}

@Injectable()
class DatabaseLifecycle implements OnApplicationShutdown {
  constructor(@Inject(Database) private readonly database: Database) {}

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}

/** Connects the process's one data source; repositories inject `TransactionHost`, use cases `UnitOfWork`. */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        {
          provide: Database,
          inject: [AppConfig],
          useFactory: (config: AppConfig) =>
            Database.connect(config, {
              migrations: options.migrations,
              migrate: options.migrate,
              attachToRunningEmbedded: options.attachToRunningEmbedded ?? false,
            }),
        },
        { provide: TransactionHost, inject: [Database], useFactory: (database: Database) => new TransactionHost(database) },
        { provide: UnitOfWork, useExisting: TransactionHost },
        DatabaseLifecycle,
      ],
      exports: [Database, TransactionHost, UnitOfWork],
    };
  }
}
