import { Module } from '@nestjs/common';
import { AdminRepository } from './application/admin.repository.js';
import { AdminSessionRepository } from './application/admin-session.repository.js';
import { AuthenticateSessionUseCase } from './application/authenticate-session.use-case.js';
import { ChangeOwnPasswordUseCase } from './application/change-own-password.use-case.js';
import { CheckSetupTokenUseCase } from './application/check-setup-token.use-case.js';
import { CommonPasswords } from './application/common-passwords.js';
import { CreateAdminUseCase } from './application/create-admin.use-case.js';
import { CreateFirstAdminWithSetupTokenUseCase } from './application/create-first-admin-with-setup-token.use-case.js';
import { IssueSetupTokenUseCase } from './application/issue-setup-token.use-case.js';
import { ListAdminsUseCase } from './application/list-admins.use-case.js';
import { ListAuditEntriesUseCase } from './application/list-audit-entries.use-case.js';
import { ListOwnSessionsUseCase } from './application/list-own-sessions.use-case.js';
import { PruneAdminSessionsUseCase } from './application/prune-admin-sessions.use-case.js';
import { PasswordHasher } from './application/password-hasher.js';
import { PasswordPolicy } from './application/password-policy.js';
import { RemoveAdminUseCase } from './application/remove-admin.use-case.js';
import { ResetAdminPasswordUseCase } from './application/reset-admin-password.use-case.js';
import { RevokeOwnSessionUseCase } from './application/revoke-own-session.use-case.js';
import { SessionLifetimes } from './application/session-lifetimes.js';
import { SessionStarter } from './application/session-starter.js';
import { SetupTokenRepository } from './application/setup-token.repository.js';
import { SignInThrottleRepository } from './application/sign-in-throttle.repository.js';
import { SignInUseCase } from './application/sign-in.use-case.js';
import { SignOutUseCase } from './application/sign-out.use-case.js';
import { ListedCommonPasswords } from './infrastructure/listed-common-passwords.js';
import { ScryptPasswordHasher } from './infrastructure/scrypt-password-hasher.js';
import { SqlAdminRepository } from './infrastructure/sql-admin.repository.js';
import { SqlAdminSessionRepository } from './infrastructure/sql-admin-session.repository.js';
import { SqlSetupTokenRepository } from './infrastructure/sql-setup-token.repository.js';
import { SqlSignInThrottleRepository } from './infrastructure/sql-sign-in-throttle.repository.js';

const useCases = [
  IssueSetupTokenUseCase,
  CheckSetupTokenUseCase,
  CreateFirstAdminWithSetupTokenUseCase,
  SignInUseCase,
  SignOutUseCase,
  AuthenticateSessionUseCase,
  ListOwnSessionsUseCase,
  RevokeOwnSessionUseCase,
  ChangeOwnPasswordUseCase,
  ListAdminsUseCase,
  CreateAdminUseCase,
  RemoveAdminUseCase,
  ResetAdminPasswordUseCase,
  ListAuditEntriesUseCase,
  PruneAdminSessionsUseCase,
];

/** Admins of the developer settings: accounts, passwords, sessions, setup links, sign-in throttling, the audit log's reading. */
@Module({
  providers: [
    { provide: AdminRepository, useClass: SqlAdminRepository },
    { provide: AdminSessionRepository, useClass: SqlAdminSessionRepository },
    { provide: SetupTokenRepository, useClass: SqlSetupTokenRepository },
    { provide: SignInThrottleRepository, useClass: SqlSignInThrottleRepository },
    { provide: PasswordHasher, useFactory: () => new ScryptPasswordHasher() },
    { provide: CommonPasswords, useClass: ListedCommonPasswords },
    PasswordPolicy,
    SessionLifetimes,
    SessionStarter,
    ...useCases,
  ],
  exports: useCases,
})
export class AdminModule {}
