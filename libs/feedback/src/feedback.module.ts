import { Module } from '@nestjs/common';
import { ContentModule } from '#content';
import { FeedbackRepository, HelpCenterUserRepository } from './application/feedback.repository.js';
import {
  CreateHelpCenterUserUseCase,
  FeedbackSummaryUseCase,
  GetHelpCenterUserUseCase,
  ListFeedbackUseCase,
  ListHelpCenterUsersUseCase,
  ResolveFeedbackUseCase,
  SubmitFeedbackUseCase,
  UpdateHelpCenterUserUseCase,
} from './application/feedback.use-cases.js';
import { SqlFeedbackRepository, SqlHelpCenterUserRepository } from './infrastructure/sql-feedback.repository.js';

const useCases = [
  CreateHelpCenterUserUseCase,
  ListHelpCenterUsersUseCase,
  GetHelpCenterUserUseCase,
  UpdateHelpCenterUserUseCase,
  SubmitFeedbackUseCase,
  ListFeedbackUseCase,
  ResolveFeedbackUseCase,
  FeedbackSummaryUseCase,
];

/** Reader feedback on articles and help center users (readers known by email). */
@Module({
  imports: [ContentModule],
  providers: [{ provide: HelpCenterUserRepository, useClass: SqlHelpCenterUserRepository }, { provide: FeedbackRepository, useClass: SqlFeedbackRepository }, ...useCases],
  exports: useCases,
})
export class FeedbackModule {}
