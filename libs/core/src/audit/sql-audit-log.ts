import { Injectable } from '@nestjs/common';
import { Clock } from '../clock/clock.js';
import { readKeysetRows } from '../database/keyset.js';
import { TransactionHost } from '../database/transaction.js';
import { newId } from '../ids/id.js';
import type { CursorPage } from '../pagination/page.js';
import { type CursorRequest, Paginator } from '../pagination/paginator.js';
import { type AuditActor, type AuditActorKind, type AuditEntry, type AuditEntryInput, AuditLog, assertNoSecretDetails } from './audit-log.js';

interface AuditRow {
  id: string;
  occurred_at: Date;
  actor_kind: AuditActorKind;
  actor_id: string | null;
  actor_label: string | null;
  ip: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  details: Record<string, unknown> | null;
}

const AUDIT_LIST = 'audit_log';
const SELECT = 'SELECT a.id, a.occurred_at, a.actor_kind, a.actor_id, a.actor_label, a.ip, a.action, a.target_type, a.target_id, a.details FROM audit_log a';

function toEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    occurredAt: row.occurred_at,
    actor: { kind: row.actor_kind, id: row.actor_id, label: row.actor_label, ip: row.ip },
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    details: row.details ?? {},
  };
}

/** The audit log in PostgreSQL, plain SQL, written in the caller's transaction. */
@Injectable()
export class SqlAuditLog extends AuditLog {
  constructor(
    private readonly tx: TransactionHost,
    private readonly clock: Clock,
    private readonly paginator: Paginator,
  ) {
    super();
  }

  async record(actor: AuditActor, entry: AuditEntryInput): Promise<void> {
    const details = entry.details ?? {};
    assertNoSecretDetails(details);
    await this.tx.query(
      `INSERT INTO audit_log (id, occurred_at, actor_kind, actor_id, actor_label, ip, action, target_type, target_id, details)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [newId('aud'), this.clock.now(), actor.kind, actor.id, actor.label, actor.ip, entry.action, entry.targetType, entry.targetId, JSON.stringify(details)],
    );
  }

  async list(request: CursorRequest): Promise<CursorPage<AuditEntry>> {
    return this.paginator.list(
      AUDIT_LIST,
      request,
      'created_desc',
      (query) => readKeysetRows<AuditRow>(this.tx, { select: SELECT, alias: 'a', columns: { created_desc: 'a.occurred_at' } }, query),
      (row) => ({ value: row.occurred_at.toISOString(), id: row.id }),
      toEntry,
    );
  }
}
