import { InsufficientScopeError } from '../../errors/domain-error.js';
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

  has(scope: Scope): boolean {
    return this.scopes.has(scope);
  }

  /** Throws `insufficient_scope` naming the scope when the key lacks it. */
  require(scope: Scope): void {
    if (!this.has(scope)) throw new InsufficientScopeError(scope);
  }
}
