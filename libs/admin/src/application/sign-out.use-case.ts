import { Injectable } from '@nestjs/common';
import { type AuditActor, AuditLog, UnitOfWork } from '#core';
import { AdminSessionRepository } from './admin-session.repository.js';

/** Ends the current session (its cookie stops working at once). Signing out twice is not an error. */
@Injectable()
export class SignOutUseCase {
  constructor(
    private readonly sessions: AdminSessionRepository,
    private readonly audit: AuditLog,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  execute(sessionId: string, actor: AuditActor): Promise<void> {
    return this.unitOfWork.run(async () => {
      if (!(await this.sessions.delete(sessionId))) return;
      await this.audit.record(actor, { action: 'admin.signed_out', targetType: 'admin_session', targetId: sessionId });
    });
  }
}
