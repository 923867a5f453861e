import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type PasswordCheck, PasswordHasher } from '../application/password-hasher.js';

export interface ScryptParameters {
  /** CPU/memory cost, a power of two. */
  readonly N: number;
  /** Block size. */
  readonly r: number;
  /** Parallelisation (computed sequentially by Node: it multiplies time, not memory). */
  readonly p: number;
}

/**
 * OWASP's minimum scrypt configuration (N = 2^15, r = 8, p = 3): 128 · N · r = 32 MiB of memory and about 100 ms
 * per hash on one core. Node runs scrypt on the libuv thread pool (4 threads by default), which bounds how many
 * hashes run at once, and so the memory they take.
 */
export const SCRYPT_PARAMETERS: ScryptParameters = Object.freeze({ N: 2 ** 15, r: 8, p: 3 });
export const SCRYPT_KEY_LENGTH = 64;
export const SCRYPT_SALT_BYTES = 16;
/** Node's ceiling for one scrypt call (its default, 32 MiB, is exactly what N = 2^15, r = 8 needs and is refused). */
const MAX_MEMORY = 64 * 1024 * 1024;
/** A stored hash naming more work than this is refused rather than computed (a corrupt or hostile row). */
const MAX_N = 2 ** 20;

interface ParsedHash extends ScryptParameters {
  readonly salt: Buffer;
  readonly hash: Buffer;
}

function derive(password: string, salt: Buffer, keyLength: number, params: ScryptParameters): Promise<Buffer> {
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: Math.max(MAX_MEMORY, 256 * params.N * params.r) };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** `scrypt$N$r$p$<salt base64>$<hash base64>`, or null when `stored` is not one. */
export function parseScryptHash(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map((part) => (/^\d{1,9}$/.test(part) ? Number(part) : NaN)) as [number, number, number];
  if (!(N >= 2 && N <= MAX_N && (N & (N - 1)) === 0) || !(r >= 1 && r <= 32) || !(p >= 1 && p <= 16)) return null;
  const salt = Buffer.from(parts[4]!, 'base64');
  const hash = Buffer.from(parts[5]!, 'base64');
  if (salt.length < 8 || hash.length < 32) return null;
  return { N, r, p, salt, hash };
}

export function formatScryptHash(params: ScryptParameters, salt: Buffer, hash: Buffer): string {
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** Passwords hashed with scrypt from node:crypto; each hash names its parameters, so they can rise later. */
@Injectable()
export class ScryptPasswordHasher extends PasswordHasher {
  /** A hash with the current parameters that no password matches: an all-zero key. */
  private readonly dummy: string;

  constructor(private readonly params: ScryptParameters = SCRYPT_PARAMETERS) {
    super();
    this.dummy = formatScryptHash(params, Buffer.alloc(SCRYPT_SALT_BYTES), Buffer.alloc(SCRYPT_KEY_LENGTH));
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SCRYPT_SALT_BYTES);
    return formatScryptHash(this.params, salt, await derive(password, salt, SCRYPT_KEY_LENGTH, this.params));
  }

  async verify(password: string, stored: string): Promise<PasswordCheck> {
    const parsed = parseScryptHash(stored);
    if (!parsed) return { matches: false, needsRehash: false };
    const key = await derive(password, parsed.salt, parsed.hash.length, parsed);
    const matches = timingSafeEqual(key, parsed.hash);
    const needsRehash =
      parsed.N < this.params.N || parsed.r < this.params.r || parsed.p < this.params.p || parsed.hash.length < SCRYPT_KEY_LENGTH || parsed.salt.length < SCRYPT_SALT_BYTES;
    return { matches, needsRehash: matches && needsRehash };
  }

  async verifyDummy(password: string): Promise<void> {
    await this.verify(password, this.dummy);
  }
}
