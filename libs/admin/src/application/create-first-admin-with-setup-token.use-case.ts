import { Injectable } from '@nestjs/common';
import { AuditLog, Clock, newId, UnitOfWork } from '#core';
import { InvalidSetupTokenError, normaliseAdminEmail, normaliseAdminName } from '../domain/admin.js';
import { AdminRepository } from './admin.repository.js';
import { adminActor, type RequestOrigin, type SignedIn } from './admin-views.js';
import { PasswordHasher } from './password-hasher.js';
import { PasswordPolicy } from './password-policy.js';
import { SessionStarter } from './session-starter.js';
import { SetupTokenRepository } from './setup-token.repository.js';
import { looksLikeToken, tokenHash } from './tokens.js';

export interface CreateFirstAdminCommand extends RequestOrigin {
  readonly token: string;
  readonly email: string;
  readonly name: string;
  readonly password: string;
}

/**
 * The setup page: creates the first admin while there is none, marks the setup link used and signs the new admin
 * in. Under the admin-set lock, so two forms sent at once create one admin.
 */
@Injectable()
export class CreateFirstAdminWithSetupTokenUseCase {
  constructor(
    private readonly admins: AdminRepository,
    private readonly tokens: SetupTokenRepository,
    private readonly hasher: PasswordHasher,
    private readonly policy: PasswordPolicy,
    private readonly starter: SessionStarter,
    private readonly audit: AuditLog,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** Throws InvalidSetupTokenError for a link that no longer works, a ValidationError for a field. */
  async execute(command: CreateFirstAdminCommand): Promise<SignedIn> {
    if (!looksLikeToken(command.token)) throw new InvalidSetupTokenError();
    const hash = tokenHash(command.token);
    if (!(await this.tokens.findUsable(hash, this.clock.now())) || (await this.admins.count()) > 0) throw new InvalidSetupTokenError();
    const email = normaliseAdminEmail(command.email);
    const name = normaliseAdminName(command.name);
    await this.policy.check(command.password, email);
    const passwordHash = await this.hasher.hash(command.password);
    return this.unitOfWork.run(async () => {
      await this.admins.lockAdminSet();
      const now = this.clock.now();
      if ((await this.admins.count()) > 0) throw new InvalidSetupTokenError();
      const admin = { id: newId('adm'), email, name, passwordHash, createdAt: now, updatedAt: now };
      await this.admins.insert(admin);
      if (!(await this.tokens.markUsed(hash, now, admin.id))) throw new InvalidSetupTokenError();
      const signedIn = await this.starter.start(admin, command, now);
      const actor = adminActor(admin, command.ip);
      await this.audit.record(actor, { action: 'admin.setup', targetType: 'admin', targetId: admin.id, details: { email, name } });
      await this.audit.record(actor, { action: 'admin.signed_in', targetType: 'admin', targetId: admin.id, details: { email, via: 'setup' } });
      return signedIn;
    });
  }
}
