import { Injectable } from '@nestjs/common';
import { NotFoundError } from '#core';
import { helpCenterUserView, type HelpCenterUserView } from './feedback-views.js';
import { HelpCenterUserRepository } from './help-center-user.repository.js';

@Injectable()
export class GetHelpCenterUserUseCase {
  constructor(private readonly users: HelpCenterUserRepository) {}

  async execute(id: string): Promise<HelpCenterUserView> {
    const user = await this.users.find(id);
    if (!user) throw new NotFoundError('Help center user', id);
    return helpCenterUserView(user);
  }
}
