import { createHash, randomInt } from 'node:crypto';
import type { Scope } from '#core/domain';

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
