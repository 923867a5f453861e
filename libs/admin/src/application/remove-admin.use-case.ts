import { Injectable } from '@nestjs/common';
import { type AuditActor, AuditLog, UnitOfWork } from '#core';
import { LastAdminError } from '../domain/admin.js';
import { AdminRepository } from './admin.repository.js';
import { type AdminView, adminView } from './admin-views.js';
import { findAdminByRef } from './find-admin.js';

/**
 * Removes an admin; their sessions end with them, so their next request is signed out. Never the last admin: the
 * count and the removal happen under the admin-set lock, so two removals at once leave one admin.
 */
@Injectable()
export class RemoveAdminUseCase {
  constructor(
    private readonly admins: AdminRepository,
    private readonly audit: AuditLog,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** `ref`: an `adm_…` ID or an email. NotFoundError; LastAdminError when it is the only admin. */
  execute(ref: string, actor: AuditActor): Promise<AdminView> {
    return this.unitOfWork.run(async () => {
      await this.admins.lockAdminSet();
      const admin = await findAdminByRef(this.admins, ref);
      if ((await this.admins.count()) <= 1) throw new LastAdminError();
      await this.admins.delete(admin.id);
      await this.audit.record(actor, { action: 'admin.removed', targetType: 'admin', targetId: admin.id, details: { email: admin.email, name: admin.name } });
      return adminView(admin);
    });
  }
}
