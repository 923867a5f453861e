import { Injectable } from '@nestjs/common';
import { Clock, NotFoundError, UnitOfWork } from '#core';
import { type HelpCenterUser, normaliseEmail } from '../domain/feedback.js';
import { helpCenterUserView, type HelpCenterUserView } from './feedback-views.js';
import { HelpCenterUserRepository } from './help-center-user.repository.js';

/** `email` (409 when another user has it) and `name` (null clears it); an omitted field stays as it is. */
@Injectable()
export class UpdateHelpCenterUserUseCase {
  constructor(
    private readonly users: HelpCenterUserRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, changes: { email?: string; name?: string | null }): Promise<HelpCenterUserView> {
    return this.unitOfWork.run(async () => {
      // Locked: two updates of different fields at once must not write each other's old values back.
      const user = await this.users.findForUpdate(id);
      if (!user) throw new NotFoundError('Help center user', id);
      const updated: HelpCenterUser = {
        ...user,
        email: changes.email !== undefined ? normaliseEmail(changes.email) : user.email,
        name: changes.name !== undefined ? changes.name?.trim() || null : user.name,
        updatedAt: this.clock.now(),
      };
      await this.users.update(updated);
      return helpCenterUserView(updated);
    });
  }
}
