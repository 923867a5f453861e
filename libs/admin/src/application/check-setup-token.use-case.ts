import { Injectable } from '@nestjs/common';
import { Clock } from '#core';
import { AdminRepository } from './admin.repository.js';
import { SetupTokenRepository } from './setup-token.repository.js';
import { looksLikeToken, tokenHash } from './tokens.js';

/** Whether a setup link still works: its token unused and unexpired, and no admin yet. */
@Injectable()
export class CheckSetupTokenUseCase {
  constructor(
    private readonly admins: AdminRepository,
    private readonly tokens: SetupTokenRepository,
    private readonly clock: Clock,
  ) {}

  async execute(token: string | null | undefined): Promise<boolean> {
    if (!looksLikeToken(token)) return false;
    if (!(await this.tokens.findUsable(tokenHash(token), this.clock.now()))) return false;
    return (await this.admins.count()) === 0;
  }
}
