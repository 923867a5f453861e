import { scryptSync } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { formatScryptHash, parseScryptHash, SCRYPT_PARAMETERS, ScryptPasswordHasher } from './scrypt-password-hasher.js';

describe('ScryptPasswordHasher', () => {
  const hasher = new ScryptPasswordHasher();

  it('stores scrypt$32768$8$3$<16-byte salt>$<64-byte key>, a new salt each time', async () => {
    const first = await hasher.hash('correct horse battery staple');
    const second = await hasher.hash('correct horse battery staple');
    expect(first).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{86}==$/);
    expect(second).not.toBe(first);
    const parsed = parseScryptHash(first)!;
    expect(parsed.salt).toHaveLength(16);
    expect(parsed.hash).toHaveLength(64);
  });

  it('is scrypt of the NFC-normalised password with those parameters (checked against node:crypto directly)', async () => {
    const stored = await hasher.hash('Crème brûlée 42!');
    const { salt, hash } = parseScryptHash(stored)!;
    const expected = scryptSync('Crème brûlée 42!'.normalize('NFC'), salt, 64, { N: 2 ** 15, r: 8, p: 3, maxmem: 64 * 1024 * 1024 });
    expect(hash.equals(expected)).toBe(true);
    // The same text typed with a combining accent (NFD) verifies.
    expect((await hasher.verify('Crème brûlée 42!'.normalize('NFD'), stored)).matches).toBe(true);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hasher.hash('a long enough password');
    expect(await hasher.verify('a long enough password', stored)).toEqual({ matches: true, needsRehash: false });
    expect(await hasher.verify('a long enough passworD', stored)).toEqual({ matches: false, needsRehash: false });
    expect(await hasher.verify('', stored)).toEqual({ matches: false, needsRehash: false });
  });

  it('reads the parameters from the stored hash and asks for a rehash when they are below the current ones', async () => {
    const weak = new ScryptPasswordHasher({ N: 2 ** 10, r: 8, p: 1 });
    const stored = await weak.hash('an older stored password');
    expect(stored.startsWith('scrypt$1024$8$1$')).toBe(true);
    expect(await hasher.verify('an older stored password', stored)).toEqual({ matches: true, needsRehash: true });
    // A wrong password never asks for a rehash (nothing to hash it with).
    expect(await hasher.verify('not the password', stored)).toEqual({ matches: false, needsRehash: false });
  });

  it.each([
    ['empty', ''],
    ['another scheme', 'bcrypt$2b$10$abcdefghijklmnopqrstuv'],
    ['missing parts', 'scrypt$32768$8$3$c2FsdA=='],
    ['N not a power of two', formatScryptHash({ N: 1000, r: 8, p: 1 }, Buffer.alloc(16, 1), Buffer.alloc(64, 2))],
    ['N above the ceiling', formatScryptHash({ N: 2 ** 21, r: 8, p: 1 }, Buffer.alloc(16, 1), Buffer.alloc(64, 2))],
    ['a short key', formatScryptHash({ N: 1024, r: 8, p: 1 }, Buffer.alloc(16, 1), Buffer.alloc(8, 2))],
  ])('a malformed stored hash (%s) matches nothing', async (_label, stored) => {
    expect(await hasher.verify('whatever password', stored)).toEqual({ matches: false, needsRehash: false });
  });

  it('verifyDummy does the same scrypt work as a real check and never throws', async () => {
    const stored = await hasher.hash('timing comparison pw');
    const time = async (work: () => Promise<unknown>) => {
      const start = process.hrtime.bigint();
      await work();
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    // Warm up, then compare: same order of magnitude (both run scrypt with the current parameters).
    await hasher.verifyDummy('x');
    const real = await time(() => hasher.verify('wrong password here', stored));
    const dummy = await time(() => hasher.verifyDummy('wrong password here'));
    expect(dummy).toBeGreaterThan(real / 3);
    expect(dummy).toBeLessThan(real * 3);
  });

  it('uses the documented parameters', () => {
    expect(SCRYPT_PARAMETERS).toEqual({ N: 32768, r: 8, p: 3 });
  });
});
