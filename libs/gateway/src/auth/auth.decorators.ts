import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiSecurity } from '@nestjs/swagger';
import type { Principal, Scope } from '#core';

export const SCOPES_METADATA = 'help-center:scopes';
export const PUBLIC_METADATA = 'help-center:public';
export const SECURITY_SCHEME = 'apiKey';

/**
 * The scope a route requires (several: all of them). Every route declares this or @Public();
 * the app refuses to start otherwise. Also documents the scope in the OpenAPI operation.
 */
export function RequireScopes(...scopes: [Scope, ...Scope[]]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(SCOPES_METADATA, scopes),
    ApiSecurity(SECURITY_SCHEME, scopes),
    ApiExtension('x-required-scopes', scopes),
  );
}

/** The route needs no API key. */
export function Public(): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(PUBLIC_METADATA, true), ApiExtension('x-required-scopes', []));
}

export interface AuthenticatedRequest {
  principal?: Principal;
}

/** The authenticated caller; only on routes that declare scopes. */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without RequireScopes');
  return principal;
});
