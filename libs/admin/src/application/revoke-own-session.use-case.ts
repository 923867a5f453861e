import { Injectable } from '@nestjs/common';
import { type AuditActor, AuditLog, NotFoundError, UnitOfWork } from '#core';
import { AdminSessionRepository } from './admin-session.repository.js';

/** Ends one of the admin's own sessions (e.g. on a lost laptop); its cookie stops working at once. */
@Injectable()
export class RevokeOwnSessionUseCase {
  constructor(
    private readonly sessions: AdminSessionRepository,
    private readonly audit: AuditLog,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** NotFoundError when the admin has no session with that ID. */
  execute(adminId: string, sessionId: string, actor: AuditActor): Promise<void> {
    return this.unitOfWork.run(async () => {
      if (!(await this.sessions.deleteForAdmin(adminId, sessionId))) throw new NotFoundError('Session', sessionId);
      await this.audit.record(actor, { action: 'admin.session_revoked', targetType: 'admin_session', targetId: sessionId, details: { adminId } });
    });
  }
}
