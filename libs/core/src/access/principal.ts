import type { AuditActor } from '../audit/audit-log.js';
import { InsufficientScopeError } from '../errors/domain-error.js';
import { effectiveScopes, type Scope } from './scope.js';

/** The authenticated caller of a request, as use cases see it. */
export class Principal {
  private readonly scopes: ReadonlySet<Scope>;
  /** Who the audit log names for the caller's changes, and from which address. */
  readonly actor: AuditActor;

  constructor(
    readonly keyId: string,
    /** The scopes the key was given; null for a legacy full-access key. */
    readonly granted: readonly Scope[] | null,
    actor?: AuditActor,
  ) {
    this.scopes = effectiveScopes(granted);
    this.actor = actor ?? { kind: 'api_key', id: keyId, label: null, ip: null };
  }

  /** The service itself (a worker reading content for a task, a check of an article's existence): every scope. */
  static service(): Principal {
    return new Principal('service', null, { kind: 'system', id: null, label: null, ip: null });
  }

  /** An anonymous reader of the public help center: published content only. */
  static reader(): Principal {
    return new Principal('public', ['content:read']);
  }

  /** A signed-in admin of the developer settings: full access, named in the audit log by their email. */
  static admin(adminId: string, email: string, ip: string | null): Principal {
    return new Principal(adminId, null, { kind: 'admin', id: adminId, label: email, ip });
  }

  has(scope: Scope): boolean {
    return this.scopes.has(scope);
  }

  /** Throws `insufficient_scope` naming the scope when the key lacks it. */
  require(scope: Scope): void {
    if (!this.has(scope)) throw new InsufficientScopeError(scope);
  }
}
