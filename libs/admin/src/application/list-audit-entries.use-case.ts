import { Injectable } from '@nestjs/common';
import { type AuditEntry, AuditLog, type CursorPage, type CursorRequest } from '#core';

/** The audit log, newest first, a cursor page at a time. */
@Injectable()
export class ListAuditEntriesUseCase {
  constructor(private readonly audit: AuditLog) {}

  execute(request: CursorRequest): Promise<CursorPage<AuditEntry>> {
    return this.audit.list(request);
  }
}
