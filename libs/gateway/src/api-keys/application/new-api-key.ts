import { newId, type Scope } from '#core';
import { ApiKey } from '../domain/api-key.js';

export interface CreatedApiKey {
  readonly key: ApiKey;
  /** The plain secret: shown once, never stored. */
  readonly plain: string;
}

/** A freshly minted key (not yet stored) and its plain secret. Shared by the use cases that create keys. */
export function newApiKey(name: string, scopes: readonly Scope[] | null, createdAt: Date): CreatedApiKey {
  const minted = ApiKey.mint();
  const key = new ApiKey({
    id: newId('key'),
    name,
    keyHash: minted.hash,
    lastFour: minted.lastFour,
    scopes,
    createdAt,
    lastUsedAt: null,
    revokedAt: null,
  });
  return { key, plain: minted.plain };
}
