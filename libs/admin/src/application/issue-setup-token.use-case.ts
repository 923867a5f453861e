import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import { AdminRepository } from './admin.repository.js';
import { SetupTokenRepository } from './setup-token.repository.js';
import { randomToken, tokenHash } from './tokens.js';

/** How long a setup link works. */
export const SETUP_TOKEN_TTL_HOURS = 24;

export interface IssuedSetupToken {
  /** The plain token for the link `{PUBLIC_URL}/settings/setup?token=…`: shown once, only its SHA-256 is stored. */
  readonly token: string;
  readonly expiresAt: Date;
}

/**
 * Start-up of an API process: while there is no admin and no usable setup link, a new one-time link for creating
 * the first admin. Under the admin-set lock, so processes starting together issue one link between them.
 */
@Injectable()
export class IssueSetupTokenUseCase {
  constructor(
    private readonly admins: AdminRepository,
    private readonly tokens: SetupTokenRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** The new token, or null when an admin exists or an unused link is still valid. */
  execute(): Promise<IssuedSetupToken | null> {
    return this.unitOfWork.run(async () => {
      await this.admins.lockAdminSet();
      const now = this.clock.now();
      if ((await this.admins.count()) > 0 || (await this.tokens.anyUsable(now))) return null;
      const token = randomToken();
      const expiresAt = new Date(now.getTime() + SETUP_TOKEN_TTL_HOURS * 3_600_000);
      await this.tokens.insert({ tokenHash: tokenHash(token), createdAt: now, expiresAt, usedAt: null });
      return { token, expiresAt };
    });
  }
}
