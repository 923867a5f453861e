import { Module } from '@nestjs/common';
import { RedisConfig } from '#core';
import { ApiKeyRepository } from './api-keys/application/api-key.repository.js';
import { AuthenticateApiKeyUseCase } from './api-keys/application/authenticate-api-key.use-case.js';
import { CreateApiKeyUseCase } from './api-keys/application/create-api-key.use-case.js';
import { CreateInitialApiKeyUseCase } from './api-keys/application/create-initial-api-key.use-case.js';
import { KeyUsageRecorder } from './api-keys/application/key-usage.recorder.js';
import { ListApiKeysUseCase } from './api-keys/application/list-api-keys.use-case.js';
import { RecordKeyUsageUseCase } from './api-keys/application/record-key-usage.use-case.js';
import { RevokeApiKeyUseCase } from './api-keys/application/revoke-api-key.use-case.js';
import { SqlApiKeyRepository } from './api-keys/infrastructure/sql-api-key.repository.js';
import { IdempotencyRepository } from './idempotency/application/idempotency.repository.js';
import { PruneIdempotencyKeysUseCase } from './idempotency/application/prune-idempotency-keys.use-case.js';
import { SqlIdempotencyRepository } from './idempotency/infrastructure/sql-idempotency.repository.js';
import { MemoryRateLimiter } from './rate-limit/memory-rate-limiter.adapter.js';
import { RateLimiter } from './rate-limit/rate-limiter.port.js';
import { RedisRateLimiter } from './rate-limit/redis-rate-limiter.adapter.js';

const useCases = [
  AuthenticateApiKeyUseCase,
  CreateApiKeyUseCase,
  CreateInitialApiKeyUseCase,
  ListApiKeysUseCase,
  RevokeApiKeyUseCase,
  RecordKeyUsageUseCase,
  PruneIdempotencyKeysUseCase,
];

/**
 * What an API request passes through before a use case: API keys (and their usage), rate limits and
 * Idempotency-Key records. The guards, interceptor, filter and middleware that use them are registered by the
 * HTTP app; the CLI uses the key use cases. Needs CoreModule (configuration, database, jobs, clock).
 */
@Module({
  providers: [
    { provide: ApiKeyRepository, useClass: SqlApiKeyRepository },
    { provide: IdempotencyRepository, useClass: SqlIdempotencyRepository },
    {
      provide: RateLimiter,
      inject: [RedisConfig],
      useFactory: (c: RedisConfig) => (c.url ? new RedisRateLimiter(c.url, c.prefix) : new MemoryRateLimiter()),
    },
    KeyUsageRecorder,
    ...useCases,
  ],
  exports: [RateLimiter, IdempotencyRepository, ...useCases],
})
export class GatewayModule {}
