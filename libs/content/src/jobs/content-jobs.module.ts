import { Module } from '@nestjs/common';
import { ContentModule } from '../content.module.js';
import { CompactHelpCenterChangesProcessor } from './compact-help-center-changes.processor.js';

/** The content lib's job processors: folding the help center's recorded content changes every minute. For processes that run jobs. */
@Module({
  imports: [ContentModule],
  providers: [CompactHelpCenterChangesProcessor],
})
export class ContentJobsModule {}
