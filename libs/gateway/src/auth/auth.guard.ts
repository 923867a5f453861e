import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AuthenticateApiKeyUseCase } from '../api-keys/application/authenticate-api-key.use-case.js';
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
    // Already authenticated before its body was read (JsonBodyMiddleware), from the same header.
    const principal = request.principal ?? (await this.authenticate.execute(bearerToken(request.headers.authorization), request.ip ?? null));
    request.principal = principal;
    for (const scope of scopes) principal.require(scope);
    return true;
  }
}

/**
 * The key of an `Authorization: Bearer <key>` header. Any other scheme, or a bare key, is an invalid credential
 * (401 invalid_token), never accepted as a key: only the Bearer scheme carries keys.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1] ?? NOT_A_BEARER_TOKEN;
}

/** Stands for a credential in another form than Bearer: present (so not "missing"), and never a valid key. */
const NOT_A_BEARER_TOKEN = '-';
