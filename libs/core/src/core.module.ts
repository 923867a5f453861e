import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AuditLog } from './audit/audit-log.js';
import { SqlAuditLog } from './audit/sql-audit-log.js';
import { Clock, SystemClock } from './clock/clock.js';
import { type AppConfig, EncryptionConfig, SecretsConfig, StorageConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import type { Migration } from './database/database.js';
import { DatabaseModule } from './database/database.module.js';
import { EventOutbox, OutboxSignal } from './events/event-outbox.js';
import { OutboxNotifications } from './events/outbox-notifications.js';
import { SecretCipher } from './crypto/secret-cipher.js';
import { CheckReadinessUseCase } from './health/check-readiness.use-case.js';
import { JobsModule } from './jobs/jobs.module.js';
import { CursorCodec } from './pagination/cursor-codec.js';
import { Paginator } from './pagination/paginator.js';
import { LocalObjectStorage } from './storage/local-object-storage.adapter.js';
import { ObjectStorage } from './storage/object-storage.port.js';
import { S3ObjectStorage } from './storage/s3-object-storage.adapter.js';

export interface CoreModuleOptions {
  readonly migrations: readonly Migration[];
  /** Apply pending migrations on start (app, tests). */
  readonly migrate: boolean;
  /** This process runs jobs (embedded `npm start`, worker). */
  readonly runsJobs: boolean;
  /** Embedded mode: attach to the process serving the data directory instead of failing (CLI, worker). */
  readonly attachToRunningEmbedded?: boolean;
}

const useCases = [CheckReadinessUseCase];

/** Configuration, database, jobs, clock, pagination, object storage, secrets, the event outbox and the audit log for every app. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig, options: CoreModuleOptions): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        ConfigModule.forRoot(config),
        DiscoveryModule,
        DatabaseModule.forRoot({
          migrations: options.migrations,
          migrate: options.migrate,
          attachToRunningEmbedded: options.attachToRunningEmbedded,
        }),
        JobsModule.forRoot(config, { runsJobs: options.runsJobs }),
      ],
      providers: [
        { provide: Clock, useClass: SystemClock },
        { provide: Paginator, inject: [SecretsConfig], useFactory: (c: SecretsConfig) => new Paginator(new CursorCodec(c.appSecret)) },
        {
          provide: ObjectStorage,
          inject: [StorageConfig],
          useFactory: (c: StorageConfig) => (c.s3 ? new S3ObjectStorage(c.s3) : new LocalObjectStorage(c.localDir)),
        },
        OutboxSignal,
        OutboxNotifications,
        { provide: SecretCipher, inject: [EncryptionConfig], useFactory: (keys: EncryptionConfig) => new SecretCipher(keys) },
        EventOutbox,
        { provide: AuditLog, useClass: SqlAuditLog },
        ...useCases,
      ],
      exports: [ConfigModule, DatabaseModule, JobsModule, Clock, Paginator, ObjectStorage, OutboxSignal, OutboxNotifications, SecretCipher, EventOutbox, AuditLog, ...useCases],
    };
  }
}
