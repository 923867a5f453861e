import { Injectable } from '@nestjs/common';
import { AdminRepository } from './admin.repository.js';
import { type AdminView, adminView } from './admin-views.js';

/** Every admin, oldest first. */
@Injectable()
export class ListAdminsUseCase {
  constructor(private readonly admins: AdminRepository) {}

  async execute(): Promise<AdminView[]> {
    return (await this.admins.list()).map(adminView);
  }
}
