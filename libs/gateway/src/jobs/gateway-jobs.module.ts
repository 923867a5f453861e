import { Module } from '@nestjs/common';
import { GatewayModule } from '../gateway.module.js';
import { PruneIdempotencyKeysProcessor } from './prune-idempotency-keys.processor.js';
import { RecordKeyUsageProcessor } from './record-key-usage.processor.js';

/** The gateway's job processors: an API key's last use, and the hourly pruning of Idempotency-Key records. For processes that run jobs. */
@Module({
  imports: [GatewayModule],
  providers: [RecordKeyUsageProcessor, PruneIdempotencyKeysProcessor],
})
export class GatewayJobsModule {}
