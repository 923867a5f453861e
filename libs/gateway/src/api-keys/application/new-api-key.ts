import { type AuditActor, newId, type Scope } from '#core';
import { ApiKey } from '../domain/api-key.js';

export interface CreatedApiKey {
  readonly key: ApiKey;
  /** The plain secret: shown once, never stored. */
  readonly plain: string;
}

export interface NewApiKeyOptions {
  readonly expiresAt: Date | null;
  readonly createdBy: string;
}

/** A freshly minted key (not yet stored) and its plain secret. Shared by the use cases that create keys. */
export function newApiKey(name: string, scopes: readonly Scope[] | null, createdAt: Date, options: NewApiKeyOptions): CreatedApiKey {
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
    expiresAt: options.expiresAt,
    createdBy: options.createdBy,
  });
  return { key, plain: minted.plain };
}

/** How a key's creator is shown: the actor's label (an admin's email, `cli (<OS user>)`), else its ID, else its kind. */
export function actorName(actor: AuditActor): string {
  return actor.label ?? actor.id ?? actor.kind;
}

/** The audit details of a key: what it may do and until when; never the key or its hash. */
export function keyAuditDetails(key: ApiKey): Record<string, unknown> {
  const p = key.props;
  return { name: p.name, lastFour: p.lastFour, scopes: p.scopes, expiresAt: p.expiresAt?.toISOString() ?? null };
}
