import type { ApiKey } from '../domain/api-key.js';

/** Port: storage of API keys. */
export abstract class ApiKeyRepository {
  abstract insert(key: ApiKey): Promise<void>;
  abstract findByHash(keyHash: string): Promise<ApiKey | null>;
  abstract list(): Promise<ApiKey[]>;
  abstract count(): Promise<number>;
  /**
   * Sets revokedAt (keeps an earlier revocation time); null when no such key exists. `revokedNow` is false when
   * the key was revoked before.
   */
  abstract revoke(id: string, at: Date): Promise<{ key: ApiKey; revokedNow: boolean } | null>;
  /** Moves lastUsedAt forward to `usedAt` (never backwards). */
  abstract recordUsage(id: string, usedAt: Date): Promise<void>;
}
