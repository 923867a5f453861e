import { createHash, randomInt } from 'node:crypto';
import { type Scope, ValidationError } from '#core/domain';

export const API_KEY_PREFIX = 'hck_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 43; // 43 base62 characters ≈ 256 bits

export interface ApiKeyProps {
  readonly id: string;
  readonly name: string;
  readonly keyHash: string;
  readonly lastFour: string;
  /** null: a legacy key minted before scoping, with full access. */
  readonly scopes: readonly Scope[] | null;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly revokedAt: Date | null;
  /** After this instant the key is refused like a revoked one; null: it does not expire. */
  readonly expiresAt: Date | null;
  /** Who created the key (an admin's email, `cli (<OS user>)`, `system`); null for keys created before this was kept. */
  readonly createdBy: string | null;
}

/** An API key as stored: only the SHA-256 hash of the secret and its last four characters. */
export class ApiKey {
  constructor(readonly props: ApiKeyProps) {}

  get id(): string {
    return this.props.id;
  }

  get revoked(): boolean {
    return this.props.revokedAt !== null;
  }

  /** True once `now` has reached the key's expiry. */
  expiredAt(now: Date): boolean {
    return this.props.expiresAt !== null && this.props.expiresAt.getTime() <= now.getTime();
  }

  /** Neither revoked nor expired at `now`: the key authenticates. */
  usableAt(now: Date): boolean {
    return !this.revoked && !this.expiredAt(now);
  }

  /** An expiry a new key may be given: a valid instant after `now` (else a 400 naming `expires_at`). */
  static checkExpiry(expiresAt: Date | null, now: Date): Date | null {
    if (expiresAt === null) return null;
    if (Number.isNaN(expiresAt.getTime())) throw ValidationError.field('expires_at', 'expires_at must be a date and time, e.g. 2027-01-31T00:00:00Z');
    if (expiresAt.getTime() <= now.getTime()) throw ValidationError.field('expires_at', 'expires_at must be in the future');
    return expiresAt;
  }

  /** Mints a new secret; the plain value leaves this function once and is never stored. */
  static mint(): { plain: string; hash: string; lastFour: string } {
    let secret = '';
    for (let i = 0; i < SECRET_LENGTH; i++) secret += ALPHABET[randomInt(ALPHABET.length)];
    const plain = `${API_KEY_PREFIX}${secret}`;
    return { plain, hash: ApiKey.hash(plain), lastFour: plain.slice(-4) };
  }

  static hash(plain: string): string {
    return createHash('sha256').update(plain).digest('hex');
  }

  /** Cheap shape check before hashing and looking up. */
  static looksValid(plain: string): boolean {
    return plain.startsWith(API_KEY_PREFIX) && /^[0-9A-Za-z]{40,128}$/.test(plain.slice(API_KEY_PREFIX.length));
  }
}
