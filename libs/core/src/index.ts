// The public face of libs/core: apps and other libs import only from here.
export {
  AiConfig,
  AppConfig,
  DatabaseConfig,
  EncryptionConfig,
  HelpdeskConfig,
  HttpConfig,
  IMAGE_NETWORK_SETTINGS,
  ImageConfig,
  loadConfig,
  loadConfigOrExit,
  RateLimitConfig,
  RedisConfig,
  SecretsConfig,
  SettingsConfig,
  StorageConfig,
  WebhookConfig,
  WEBHOOK_NETWORK_SETTINGS,
} from './config/app-config.js';
export { ConfigError } from './config/config.error.js';
export { CoreModule } from './core.module.js';

export { ERROR_CODES, type ErrorCode } from './errors/error-code.js';
export {
  ConflictError,
  DomainError,
  type ErrorDetail,
  InsufficientScopeError,
  InvalidCursorError,
  InvalidStateError,
  NotFoundError,
  RateLimitedError,
  ServiceUnavailableError,
  UnauthorizedError,
  ValidationError,
} from './errors/domain-error.js';
export { newId } from './ids/id.js';
export { findUnstorableText, isStorableText, unstorableTextError } from './text/storable-text.js';
export { Clock } from './clock/clock.js';

export { CursorCodec } from './pagination/cursor-codec.js';
export {
  type CursorPage,
  DEFAULT_PAGE_SIZE,
  type KeysetQuery,
  type KeysetSlice,
  MAX_OFFSET,
  MAX_PAGE_SIZE,
  checkOffsetRequest,
  type OffsetPage,
  offsetPage,
  type OffsetRequest,
} from './pagination/page.js';
export { type CursorRequest, Paginator } from './pagination/paginator.js';

export { Database, type Migration, runMigrations } from './database/database.js';
export { EMBEDDED_POSTGRES_MAJOR } from './database/embedded/postgres-binaries.js';
export { TransactionHost, UnitOfWork } from './database/transaction.js';
export { isUniqueViolation, isForeignKeyViolation, isDatabaseUnavailable, isInvalidTextValue } from './database/pg-errors.js';
export { readKeysetRows } from './database/keyset.js';

export { JobName, type JobPayloads } from './jobs/job-name.js';
export { type JobOptions, JobQueue, RetryLaterError } from './jobs/job-queue.port.js';
export { type JobContext, JobProcessor, ProcessesJob } from './jobs/job-processor.js';
export { MissingJobProcessorError } from './jobs/job-processor.registry.js';
export { InlineJobQueue } from './jobs/inline-job-queue.adapter.js';

export { Principal } from './access/principal.js';
export { type AuditActor, type AuditActorKind, type AuditEntry, type AuditEntryInput, AuditLog, SYSTEM_ACTOR } from './audit/audit-log.js';
export { SqlAuditLog } from './audit/sql-audit-log.js';
export { isScope, type Scope, SCOPES } from './access/scope.js';

export { CheckReadinessUseCase } from './health/check-readiness.use-case.js';

export { createLogger, PinoNestLogger } from './logging/logger.js';

export { IMMUTABLE_CACHE_CONTROL, ObjectStorage, type StoredObject } from './storage/object-storage.port.js';
export { LocalObjectStorage } from './storage/local-object-storage.adapter.js';
export { S3ObjectStorage } from './storage/s3-object-storage.adapter.js';
export { AddressPolicy } from './net/address-policy.js';
export {
  guardedLookup,
  type OutboundFailure,
  OutboundRequestError,
  SafeHttpClient,
  type SafeHttpClientOptions,
  type SafeRequestOptions,
} from './net/safe-http-client.js';
export { withTimeout } from './util/with-timeout.js';
export { unsupportedNodeWarning } from './util/node-version.js';

export { ALL_EVENTS, EVENT_TYPES, type EventType, isEventType } from './events/event-type.js';
export { mayReceiveEvent } from './events/event-access.js';
export { EventOutbox, OutboxSignal } from './events/event-outbox.js';
export { OutboxNotifications } from './events/outbox-notifications.js';
export { SecretCipher, SecretCipherError } from './crypto/secret-cipher.js';
export { exitAfterShutdownDeadline } from './util/shutdown-deadline.js';
