import { Injectable } from '@nestjs/common';
import { type AuditActor, AuditLog, Clock, NotFoundError, UnitOfWork } from '#core';
import { AdminRepository } from './admin.repository.js';
import { AdminSessionRepository } from './admin-session.repository.js';
import { adminView, type CreatedAdmin } from './admin-views.js';
import { findAdminByRef } from './find-admin.js';
import { PasswordHasher } from './password-hasher.js';
import { PasswordPolicy } from './password-policy.js';
import { generatePassword } from './tokens.js';

/** Sets an admin's password without the current one (command line); every session of theirs ends. */
@Injectable()
export class ResetAdminPasswordUseCase {
  constructor(
    private readonly admins: AdminRepository,
    private readonly sessions: AdminSessionRepository,
    private readonly hasher: PasswordHasher,
    private readonly policy: PasswordPolicy,
    private readonly audit: AuditLog,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** `ref`: an `adm_…` ID or an email; `password` null: generated and returned once. */
  async execute(ref: string, password: string | null, actor: AuditActor): Promise<CreatedAdmin> {
    const admin = await findAdminByRef(this.admins, ref);
    const generatedPassword = password === null ? generatePassword() : null;
    const chosen = password ?? generatedPassword!;
    if (password !== null) await this.policy.check(chosen, admin.email);
    const passwordHash = await this.hasher.hash(chosen);
    return this.unitOfWork.run(async () => {
      const now = this.clock.now();
      if (!(await this.admins.updatePasswordHash(admin.id, passwordHash, now))) throw new NotFoundError('Admin', admin.id);
      const ended = await this.sessions.deleteAllForAdmin(admin.id);
      await this.audit.record(actor, { action: 'admin.password_reset', targetType: 'admin', targetId: admin.id, details: { email: admin.email, sessionsEnded: ended } });
      return { admin: adminView({ ...admin, updatedAt: now }), generatedPassword };
    });
  }
}
