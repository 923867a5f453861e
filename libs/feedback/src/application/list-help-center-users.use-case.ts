import { Injectable } from '@nestjs/common';
import { type CursorPage, type CursorRequest, Paginator } from '#core';
import { helpCenterUserView, type HelpCenterUserView } from './feedback-views.js';
import { HelpCenterUserRepository } from './help-center-user.repository.js';

const USERS_LIST = 'help_center_users';

/** Newest first. */
@Injectable()
export class ListHelpCenterUsersUseCase {
  constructor(
    private readonly users: HelpCenterUserRepository,
    private readonly paginator: Paginator,
  ) {}

  async execute(request: CursorRequest): Promise<CursorPage<HelpCenterUserView>> {
    const query = this.paginator.query(USERS_LIST, request, 'created_desc');
    const slice = await this.users.list(query);
    return this.paginator.page(USERS_LIST, query, slice, (u) => ({ value: u.createdAt.toISOString(), id: u.id }), helpCenterUserView);
  }
}
