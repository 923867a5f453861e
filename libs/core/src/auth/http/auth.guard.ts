import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AuthenticateApiKeyUseCase } from '../application/api-key.use-cases.js';
import type { Scope } from '../domain/scope.js';
import { type AuthenticatedRequest, PUBLIC_METADATA, SCOPES_METADATA } from './auth.decorators.js';

/** Authenticates `Authorization: Bearer <key>` and enforces the route's declared scopes. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticate: AuthenticateApiKeyUseCase,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const scopes = this.declaredScopes([context.getHandler(), context.getClass()]);
    if (scopes === 'public') return true;
    // Unreachable for routes (the app does not boot with an undeclared route); deny rather than allow.
    if (!scopes) return false;
    const request = context.switchToHttp().getRequest<Request & AuthenticatedRequest>();
    const principal = await this.authenticate.execute(bearerToken(request.headers.authorization));
    request.principal = principal;
    for (const scope of scopes) principal.require(scope);
    return true;
  }

  /**
   * The nearest declaration wins: the method's own @RequireScopes or @Public, else its controller's.
   * (Looking up each marker across both levels separately let a @Public controller open a method that
   * requires scopes.)
   */
  private declaredScopes(targets: ReadonlyArray<Parameters<Reflector['get']>[1]>): Scope[] | 'public' | undefined {
    for (const target of targets) {
      const scopes = this.reflector.get<Scope[] | undefined>(SCOPES_METADATA, target);
      if (scopes) return scopes;
      if (this.reflector.get<boolean | undefined>(PUBLIC_METADATA, target)) return 'public';
    }
    return undefined;
  }
}

function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : header;
}
