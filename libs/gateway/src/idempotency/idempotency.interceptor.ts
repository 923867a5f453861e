import { createHash } from 'node:crypto';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { Clock, DomainError, ValidationError } from '#core';
import type { AuthenticatedRequest } from '../auth/auth.decorators.js';
import { IDEMPOTENCY_RETENTION_MS, IdempotencyRepository, type IdempotencyRecord, type StoredResponse } from './application/idempotency.repository.js';

/** A claim older than this without a response belongs to a request that died; it may be taken over. */
const ABANDONED_AFTER_MS = 5 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const REPLAYED_HEADERS = ['etag', 'location'];

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * `Idempotency-Key` on POST (IETF draft): the first successful response is kept for 24 h per API key and
 * replayed with `Idempotent-Replayed: true`; the same key with another request is 422, and while the
 * first request runs, 409. Failed requests (4xx/5xx) keep nothing, so a corrected retry may reuse the key.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly records: IdempotencyRepository,
    private readonly clock: Clock,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request & AuthenticatedRequest>();
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || key === undefined) return next.handle();
    return from(this.handle(context, request, Array.isArray(key) ? key[0]! : key, next));
  }

  private async handle(context: ExecutionContext, request: Request & AuthenticatedRequest, key: string, next: CallHandler): Promise<unknown> {
    if (!KEY_PATTERN.test(key)) {
      throw ValidationError.field('Idempotency-Key', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
    }
    const response = context.switchToHttp().getResponse<Response>();
    const owner = request.principal?.keyId ?? `ip:${request.ip}`;
    const fingerprint = createHash('sha256').update(`${request.method} ${request.originalUrl}\n${canonical(request.body ?? null)}`).digest('hex');
    const now = this.clock.now();

    if (!(await this.records.claim(owner, key, fingerprint, now))) {
      const existing = await this.records.find(owner, key);
      if (existing && !(await this.takeOver(existing, fingerprint, now))) return this.replay(existing, fingerprint, response);
      if (!existing && !(await this.records.claim(owner, key, fingerprint, now))) {
        throw new DomainError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed');
      }
    }

    let body: unknown;
    try {
      body = await lastValueFrom(next.handle(), { defaultValue: undefined });
    } catch (error) {
      await this.records.release(owner, key).catch(() => undefined);
      throw error;
    }
    const stored: StoredResponse = { status: response.statusCode, body: body ?? null, headers: this.headersOf(response) };
    await this.records.complete(owner, key, stored, this.clock.now());
    return body;
  }

  /** An expired record, or a claim whose request died, is replaced by this request's claim. */
  private async takeOver(existing: IdempotencyRecord, fingerprint: string, now: Date): Promise<boolean> {
    const age = now.getTime() - existing.createdAt.getTime();
    const expired = age >= IDEMPOTENCY_RETENTION_MS;
    const abandoned = existing.response === null && age >= ABANDONED_AFTER_MS;
    if (!expired && !abandoned) return false;
    return this.records.reclaim(existing, fingerprint, now);
  }

  /** The router has set the route's status before interceptors run; a replay overrides it with the stored one. */
  private replay(existing: IdempotencyRecord, fingerprint: string, response: Response): unknown {
    if (existing.fingerprint !== fingerprint) {
      throw new DomainError('idempotency_key_reused', 'This Idempotency-Key was used with a different request');
    }
    if (existing.response === null) {
      throw new DomainError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed');
    }
    for (const [name, value] of Object.entries(existing.response.headers)) response.setHeader(name, value);
    response.setHeader('Idempotent-Replayed', 'true');
    response.status(existing.response.status);
    return existing.response.body;
  }

  private headersOf(response: Response): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = response.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    return headers;
  }
}
