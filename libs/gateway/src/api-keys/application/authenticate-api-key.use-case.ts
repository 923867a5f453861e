import { Injectable } from '@nestjs/common';
import { Clock, Principal, UnauthorizedError } from '#core';
import { ApiKey } from '../domain/api-key.js';
import { ApiKeyRepository } from './api-key.repository.js';
import { KeyUsageRecorder } from './key-usage.recorder.js';

@Injectable()
export class AuthenticateApiKeyUseCase {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly usage: KeyUsageRecorder,
    private readonly clock: Clock,
  ) {}

  /**
   * Resolves a bearer token to its principal (acting from `ip` in the audit log); every failure is the same 401,
   * so keys cannot be probed. The key is read from the database on every request (no cache): a revoked or expired
   * key is refused at once, on every process.
   */
  async execute(token: string | undefined, ip: string | null = null): Promise<Principal> {
    if (!token) throw new UnauthorizedError('missing');
    if (!ApiKey.looksValid(token)) throw new UnauthorizedError('invalid');
    const key = await this.keys.findByHash(ApiKey.hash(token));
    const now = this.clock.now();
    if (!key || !key.usableAt(now)) throw new UnauthorizedError('invalid');
    this.usage.record(key.id, now);
    return new Principal(key.id, key.props.scopes, { kind: 'api_key', id: key.id, label: null, ip });
  }
}
