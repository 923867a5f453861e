import { Module } from '@nestjs/common';
import { ContentModule } from '#content';
import { CreateHelpCenterUserUseCase } from './application/create-help-center-user.use-case.js';
import { FeedbackRepository } from './application/feedback.repository.js';
import { GetFeedbackSummaryUseCase } from './application/get-feedback-summary.use-case.js';
import { GetHelpCenterUserUseCase } from './application/get-help-center-user.use-case.js';
import { HelpCenterUserRepository } from './application/help-center-user.repository.js';
import { ListFeedbackUseCase } from './application/list-feedback.use-case.js';
import { ListHelpCenterUsersUseCase } from './application/list-help-center-users.use-case.js';
import { ResolveFeedbackUseCase } from './application/resolve-feedback.use-case.js';
import { SubmitFeedbackUseCase } from './application/submit-feedback.use-case.js';
import { UpdateHelpCenterUserUseCase } from './application/update-help-center-user.use-case.js';
import { SqlFeedbackRepository } from './infrastructure/sql-feedback.repository.js';
import { SqlHelpCenterUserRepository } from './infrastructure/sql-help-center-user.repository.js';

const useCases = [
  CreateHelpCenterUserUseCase,
  ListHelpCenterUsersUseCase,
  GetHelpCenterUserUseCase,
  UpdateHelpCenterUserUseCase,
  SubmitFeedbackUseCase,
  ListFeedbackUseCase,
  ResolveFeedbackUseCase,
  GetFeedbackSummaryUseCase,
];

/** Reader feedback on articles and help center users (readers known by email). */
@Module({
  imports: [ContentModule],
  providers: [{ provide: HelpCenterUserRepository, useClass: SqlHelpCenterUserRepository }, { provide: FeedbackRepository, useClass: SqlFeedbackRepository }, ...useCases],
  exports: useCases,
})
export class FeedbackModule {}
