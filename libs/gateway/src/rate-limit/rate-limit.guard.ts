import { applyDecorators, type CanActivate, type ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Clock, RateLimitConfig, RateLimitedError } from '#core';
import type { AuthenticatedRequest } from '../auth/auth.decorators.js';
import { routeAccess } from '../auth/route-access.js';
import { RateLimiter } from './rate-limiter.port.js';
import { type RateLimitPolicy, type RateLimitPolicyName, rateLimitPolicies } from './rate-limit.policy.js';

const POLICY_METADATA = 'help-center:rate-limit-policy';

/** Puts a route under a named policy instead of the default per-key one (public routes: opt in). */
export function RateLimit(policy: RateLimitPolicyName): MethodDecorator {
  return applyDecorators(SetMetadata(POLICY_METADATA, policy), ApiExtension('x-rate-limit-policy', policy));
}

/**
 * Counts the request against its policy and sets X-RateLimit-* and the IETF RateLimit-Policy /
 * RateLimit fields; over the limit it answers 429 rate_limited with Retry-After.
 * Runs after AuthGuard, so per-key budgets know the key.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly policies: Record<RateLimitPolicyName, RateLimitPolicy>;

  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
    limits: RateLimitConfig,
  ) {
    this.policies = rateLimitPolicies(limits);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const named = this.reflector.getAllAndOverride<RateLimitPolicyName | undefined>(POLICY_METADATA, targets);
    const isPublic = routeAccess(this.reflector, context.getHandler(), context.getClass()) === 'public';
    if (isPublic && !named) return true;
    const policyName = named ?? 'default';
    const policy = this.policies[policyName];
    const request = context.switchToHttp().getRequest<Request & AuthenticatedRequest>();
    const subject = policy.per === 'key' ? request.principal?.keyId : request.ip;
    if (!subject) return true;
    const now = this.clock.now().getTime();
    const state = await this.limiter.consume(`${policyName}:${subject}`, policy.limit, policy.windowSeconds * 1000, now);
    const resetIn = Math.max(1, Math.ceil((state.resetAt - now) / 1000));
    const response = context.switchToHttp().getResponse<Response>();
    response.setHeader('X-RateLimit-Limit', String(state.limit));
    response.setHeader('X-RateLimit-Remaining', String(state.remaining));
    response.setHeader('X-RateLimit-Reset', String(Math.ceil(state.resetAt / 1000)));
    response.setHeader('RateLimit-Policy', `"default";q=${policy.limit};w=${policy.windowSeconds}`);
    response.setHeader('RateLimit', `"default";r=${state.remaining};t=${resetIn}`);
    if (!state.allowed) {
      response.setHeader('Retry-After', String(resetIn));
      throw new RateLimitedError(resetIn);
    }
    return true;
  }
}
