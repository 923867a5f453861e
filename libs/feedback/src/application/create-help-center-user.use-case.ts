import { Injectable } from '@nestjs/common';
import { Clock, newId } from '#core';
import { GetHelpdeskUseCase } from '#content';
import { type HelpCenterUser, normaliseEmail } from '../domain/feedback.js';
import { helpCenterUserView, type HelpCenterUserView } from './feedback-views.js';
import { HelpCenterUserRepository } from './help-center-user.repository.js';

/** A reader known by email: stored lowercase, unique per helpdesk (409 on a duplicate, whatever its case). */
@Injectable()
export class CreateHelpCenterUserUseCase {
  constructor(
    private readonly users: HelpCenterUserRepository,
    private readonly helpdesk: GetHelpdeskUseCase,
    private readonly clock: Clock,
  ) {}

  async execute(input: { email: string; name?: string | null }): Promise<HelpCenterUserView> {
    const now = this.clock.now();
    const user: HelpCenterUser = {
      id: newId('hcusr'),
      helpdeskId: (await this.helpdesk.execute()).id,
      email: normaliseEmail(input.email),
      name: input.name?.trim() || null,
      createdAt: now,
      updatedAt: now,
    };
    await this.users.insert(user);
    return helpCenterUserView(user);
  }
}
