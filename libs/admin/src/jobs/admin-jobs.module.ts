import { Module } from '@nestjs/common';
import { AdminModule } from '../admin.module.js';
import { PruneAdminSessionsProcessor } from './prune-admin-sessions.processor.js';

/** The admin lib's job processors: the hourly pruning of expired sessions and spent sign-in counters. For processes that run jobs. */
@Module({
  imports: [AdminModule],
  providers: [PruneAdminSessionsProcessor],
})
export class AdminJobsModule {}
