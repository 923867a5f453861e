import type { Reflector } from '@nestjs/core';
import type { Scope } from '#core';
import { PUBLIC_METADATA, SCOPES_METADATA } from './auth.decorators.js';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type Target = Function;

/**
 * What a route declares: `public`, the scopes it requires, or nothing (the app refuses to boot then).
 * The nearest declaration wins, the method's own before its controller's, so a @Public controller cannot
 * open a method that requires scopes (or exempt it from the per-key rate limit).
 */
export function routeAccess(reflector: Reflector, handler: Target, controller: Target): readonly Scope[] | 'public' | undefined {
  for (const target of [handler, controller]) {
    const scopes = reflector.get<Scope[] | undefined>(SCOPES_METADATA, target);
    if (scopes) return scopes;
    if (reflector.get<boolean | undefined>(PUBLIC_METADATA, target)) return 'public';
  }
  return undefined;
}
