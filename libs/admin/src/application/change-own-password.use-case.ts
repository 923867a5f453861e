import { Injectable } from '@nestjs/common';
import { type AuditActor, AuditLog, Clock, NotFoundError, UnitOfWork, ValidationError } from '#core';
import { AdminRepository } from './admin.repository.js';
import { AdminSessionRepository } from './admin-session.repository.js';
import { PasswordHasher } from './password-hasher.js';
import { PasswordPolicy } from './password-policy.js';

export interface ChangeOwnPasswordCommand {
  readonly adminId: string;
  /** Kept; every other session of the admin ends. */
  readonly currentSessionId: string;
  readonly currentPassword: string;
  readonly newPassword: string;
}

/** A signed-in admin changes their password, proving the current one. Their other sessions end at once. */
@Injectable()
export class ChangeOwnPasswordUseCase {
  constructor(
    private readonly admins: AdminRepository,
    private readonly sessions: AdminSessionRepository,
    private readonly hasher: PasswordHasher,
    private readonly policy: PasswordPolicy,
    private readonly audit: AuditLog,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** A ValidationError on `currentPassword` or `newPassword`. */
  async execute(command: ChangeOwnPasswordCommand, actor: AuditActor): Promise<void> {
    const admin = await this.admins.find(command.adminId);
    if (!admin) throw new NotFoundError('Admin', command.adminId);
    const check = await this.hasher.verify(command.currentPassword, admin.passwordHash);
    if (!check.matches) throw ValidationError.field('currentPassword', 'The current password is incorrect.');
    await this.policy.check(command.newPassword, admin.email, 'newPassword');
    if (command.newPassword.normalize('NFC') === command.currentPassword.normalize('NFC')) {
      throw ValidationError.field('newPassword', 'Choose a password different from the current one.');
    }
    const passwordHash = await this.hasher.hash(command.newPassword);
    await this.unitOfWork.run(async () => {
      if (!(await this.admins.updatePasswordHash(admin.id, passwordHash, this.clock.now()))) throw new NotFoundError('Admin', admin.id);
      const ended = await this.sessions.deleteAllForAdmin(admin.id, command.currentSessionId);
      await this.audit.record(actor, { action: 'admin.password_changed', targetType: 'admin', targetId: admin.id, details: { email: admin.email, sessionsEnded: ended } });
    });
  }
}
