import { InsufficientScopeError } from '../errors/domain-error.js';
import { effectiveScopes, type Scope } from './scope.js';

/** The authenticated caller of a request, as use cases see it. */
export class Principal {
  private readonly scopes: ReadonlySet<Scope>;

  constructor(
    readonly keyId: string,
    /** The scopes the key was given; null for a legacy full-access key. */
    readonly granted: readonly Scope[] | null,
  ) {
    this.scopes = effectiveScopes(granted);
  }

  /** The service itself (a worker reading content for a task, a check of an article's existence): every scope. */
  static service(): Principal {
    return new Principal('service', null);
  }

  /** An anonymous reader of the public help center: published content only. */
  static reader(): Principal {
    return new Principal('public', ['content:read']);
  }

  has(scope: Scope): boolean {
    return this.scopes.has(scope);
  }

  /** Throws `insufficient_scope` naming the scope when the key lacks it. */
  require(scope: Scope): void {
    if (!this.has(scope)) throw new InsufficientScopeError(scope);
  }
}
