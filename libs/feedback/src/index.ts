// The public face of libs/feedback: apps import only from here.
export { FeedbackModule } from './feedback.module.js';
export { FEEDBACK_TYPES, type FeedbackType, HelpCenterUserEmailTakenError, MAX_FEEDBACK_LENGTH } from './domain/feedback.js';
export { CreateHelpCenterUserUseCase } from './application/create-help-center-user.use-case.js';
export { ListHelpCenterUsersUseCase } from './application/list-help-center-users.use-case.js';
export { GetHelpCenterUserUseCase } from './application/get-help-center-user.use-case.js';
export { UpdateHelpCenterUserUseCase } from './application/update-help-center-user.use-case.js';
export { SubmitFeedbackUseCase } from './application/submit-feedback.use-case.js';
export { ListFeedbackUseCase } from './application/list-feedback.use-case.js';
export { ResolveFeedbackUseCase } from './application/resolve-feedback.use-case.js';
export { GetFeedbackSummaryUseCase } from './application/get-feedback-summary.use-case.js';
export type { FeedbackSummary } from './application/feedback.repository.js';
export type { FeedbackReceipt, FeedbackView, HelpCenterUserView } from './application/feedback-views.js';
