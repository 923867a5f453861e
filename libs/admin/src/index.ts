// The public face of libs/admin: apps import only from here.
export { AdminModule } from './admin.module.js';
export {
  AdminEmailTakenError,
  InvalidCredentialsError,
  InvalidSetupTokenError,
  LastAdminError,
  MAX_ADMIN_NAME_LENGTH,
  SignInThrottledError,
} from './domain/admin.js';
export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './domain/password-rules.js';
export {
  ACCOUNT_LOCK_MS,
  ACCOUNT_MAX_FAILURES,
  ACCOUNT_WINDOW_MS,
  IP_MAX_ATTEMPTS,
  IP_WINDOW_MS,
} from './domain/sign-in-throttle.js';
export {
  adminActor,
  type AdminView,
  type AuthenticatedAdmin,
  type CreatedAdmin,
  type CurrentSession,
  type RequestOrigin,
  type SessionView,
  type SignedIn,
} from './application/admin-views.js';
export { SESSION_COOKIE } from './application/session-cookie.js';
export { IssueSetupTokenUseCase, type IssuedSetupToken, SETUP_TOKEN_TTL_HOURS } from './application/issue-setup-token.use-case.js';
export { CheckSetupTokenUseCase } from './application/check-setup-token.use-case.js';
export { type CreateFirstAdminCommand, CreateFirstAdminWithSetupTokenUseCase } from './application/create-first-admin-with-setup-token.use-case.js';
export { type SignInCommand, SignInUseCase } from './application/sign-in.use-case.js';
export { SignOutUseCase } from './application/sign-out.use-case.js';
export { AuthenticateSessionUseCase } from './application/authenticate-session.use-case.js';
export { ListOwnSessionsUseCase } from './application/list-own-sessions.use-case.js';
export { RevokeOwnSessionUseCase } from './application/revoke-own-session.use-case.js';
export { type ChangeOwnPasswordCommand, ChangeOwnPasswordUseCase } from './application/change-own-password.use-case.js';
export { ListAdminsUseCase } from './application/list-admins.use-case.js';
export { type CreateAdminCommand, CreateAdminUseCase } from './application/create-admin.use-case.js';
export { RemoveAdminUseCase } from './application/remove-admin.use-case.js';
export { ResetAdminPasswordUseCase } from './application/reset-admin-password.use-case.js';
export { ListAuditEntriesUseCase } from './application/list-audit-entries.use-case.js';
export { PruneAdminSessionsUseCase } from './application/prune-admin-sessions.use-case.js';
export { AdminJobsModule } from './jobs/admin-jobs.module.js';
