import type { CursorPage } from '../pagination/page.js';
import type { CursorRequest } from '../pagination/paginator.js';

/** Who made a change: a signed-in admin, an API key, someone at the command line, or the service itself. */
export type AuditActorKind = 'admin' | 'api_key' | 'cli' | 'system';

export interface AuditActor {
  readonly kind: AuditActorKind;
  /** The admin's or key's ID; null for the CLI and the system. */
  readonly id: string | null;
  /** A name a person recognises (an admin's email, `cli (<OS user>)`); null when the ID says enough. */
  readonly label: string | null;
  /** The client address of the request; null outside a request. */
  readonly ip: string | null;
}

/** The service acting on its own (e.g. an endpoint disabled after repeated failures). */
export const SYSTEM_ACTOR: AuditActor = Object.freeze({ kind: 'system', id: null, label: null, ip: null });

/** What happened. `details` never holds a secret (key, signing secret, password, token). */
export interface AuditEntryInput {
  /** e.g. `api_key.created`, `webhook.secret_rotated`. */
  readonly action: string;
  /** e.g. `api_key`, `webhook_endpoint`, `admin`. */
  readonly targetType: string;
  readonly targetId: string | null;
  readonly details?: Record<string, unknown>;
}

/** One recorded entry: who, what, when and from which address. */
export interface AuditEntry {
  readonly id: string;
  readonly occurredAt: Date;
  readonly actor: AuditActor;
  readonly action: string;
  readonly targetType: string;
  readonly targetId: string | null;
  readonly details: Record<string, unknown>;
}

/**
 * Port: the audit log of sign-ins, key and webhook changes. `record` joins the current transaction, so an entry
 * is written with the change it describes or not at all.
 */
export abstract class AuditLog {
  abstract record(actor: AuditActor, entry: AuditEntryInput): Promise<void>;

  /** Newest first, cursor-paginated. */
  abstract list(request: CursorRequest): Promise<CursorPage<AuditEntry>>;
}

/** Detail names that suggest a secret; such a detail is a programming error, refused before it is written. */
const SECRET_NAME = /secret|password|passwd|token|hash|cookie|^(api_?)?key$/i;

/** Throws when `details` (at any depth) carries a field whose name suggests a secret. */
export function assertNoSecretDetails(details: unknown, path = 'details'): void {
  if (Array.isArray(details)) {
    details.forEach((item, i) => assertNoSecretDetails(item, `${path}[${i}]`));
    return;
  }
  if (typeof details !== 'object' || details === null) return;
  for (const [name, value] of Object.entries(details)) {
    if (SECRET_NAME.test(name)) throw new Error(`Audit entry ${path}.${name} looks like a secret; audit details never hold one`);
    assertNoSecretDetails(value, `${path}.${name}`);
  }
}
