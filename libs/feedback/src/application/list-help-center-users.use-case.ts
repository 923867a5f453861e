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

  execute(request: CursorRequest): Promise<CursorPage<HelpCenterUserView>> {
    return this.paginator.list(USERS_LIST, request, 'created_desc', (query) => this.users.list(query), (u) => ({ value: u.createdAt.toISOString(), id: u.id }), helpCenterUserView);
  }
}
