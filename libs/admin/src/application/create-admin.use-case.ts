import { Injectable } from '@nestjs/common';
import { type AuditActor, AuditLog, Clock, newId, UnitOfWork } from '#core';
import { normaliseAdminEmail, normaliseAdminName } from '../domain/admin.js';
import { AdminRepository } from './admin.repository.js';
import { adminView, type CreatedAdmin } from './admin-views.js';
import { PasswordHasher } from './password-hasher.js';
import { PasswordPolicy } from './password-policy.js';
import { generatePassword } from './tokens.js';

export interface CreateAdminCommand {
  readonly email: string;
  readonly name: string;
  /** null: a strong password is generated and returned once. */
  readonly password: string | null;
}

/** A signed-in admin (or someone at the command line) adds an admin. */
@Injectable()
export class CreateAdminUseCase {
  constructor(
    private readonly admins: AdminRepository,
    private readonly hasher: PasswordHasher,
    private readonly policy: PasswordPolicy,
    private readonly audit: AuditLog,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** A ValidationError on `email`, `name` or `password`; AdminEmailTakenError (409) for an email in use. */
  async execute(command: CreateAdminCommand, actor: AuditActor): Promise<CreatedAdmin> {
    const email = normaliseAdminEmail(command.email);
    const name = normaliseAdminName(command.name);
    const generatedPassword = command.password === null ? generatePassword() : null;
    const password = command.password ?? generatedPassword!;
    if (command.password !== null) await this.policy.check(password, email);
    const passwordHash = await this.hasher.hash(password);
    return this.unitOfWork.run(async () => {
      const now = this.clock.now();
      const admin = { id: newId('adm'), email, name, passwordHash, createdAt: now, updatedAt: now };
      await this.admins.insert(admin);
      await this.audit.record(actor, { action: 'admin.created', targetType: 'admin', targetId: admin.id, details: { email, name } });
      return { admin: adminView(admin), generatedPassword };
    });
  }
}
