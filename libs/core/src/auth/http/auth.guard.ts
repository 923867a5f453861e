import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AuthenticateApiKeyUseCase } from '../application/authenticate-api-key.use-case.js';
import type { AuthenticatedRequest } from './auth.decorators.js';
import { routeAccess } from './route-access.js';

/** Authenticates `Authorization: Bearer <key>` and enforces the route's declared scopes. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticate: AuthenticateApiKeyUseCase,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const scopes = routeAccess(this.reflector, context.getHandler(), context.getClass());
    if (scopes === 'public') return true;
    // Unreachable for routes (the app does not boot with an undeclared route); deny rather than allow.
    if (!scopes) return false;
    const request = context.switchToHttp().getRequest<Request & AuthenticatedRequest>();
    const principal = await this.authenticate.execute(bearerToken(request.headers.authorization));
    request.principal = principal;
    for (const scope of scopes) principal.require(scope);
    return true;
  }
}

function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : header;
}
