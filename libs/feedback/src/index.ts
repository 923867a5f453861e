// The public face of libs/feedback: apps import only from here.
export { FeedbackModule } from './feedback.module.js';
export { FEEDBACK_TYPES, type FeedbackEntry, type FeedbackType, type HelpCenterUser, MAX_FEEDBACK_LENGTH } from './domain/feedback.js';
export {
  CreateHelpCenterUserUseCase,
  FeedbackSummaryUseCase,
  GetHelpCenterUserUseCase,
  ListFeedbackUseCase,
  ListHelpCenterUsersUseCase,
  ResolveFeedbackUseCase,
  type SubmitFeedbackCommand,
  SubmitFeedbackUseCase,
  UpdateHelpCenterUserUseCase,
} from './application/feedback.use-cases.js';
export type { FeedbackSummary } from './application/feedback.repository.js';
export { feedbackView, helpCenterUserView } from './application/feedback-views.js';
