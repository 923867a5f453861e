import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url (43 characters): session cookie values, CSRF tokens, setup tokens. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the tables store instead of a token: its SHA-256, hex. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A value that could be one of `randomToken`'s (cheap check before a lookup). */
export function looksLikeToken(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** A strong password for an admin created or reset without one: 24 characters, 144 random bits. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
