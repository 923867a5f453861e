import { describe, expect, it } from '@jest/globals';
import { SecretCipher, SecretCipherError } from './secret-cipher.js';

const OLD = 'an-old-key-an-old-key-an-old-key-0123456789';
const NEW = 'a-new-key-a-new-key-a-new-key-a-new-key-0123';

describe('SecretCipher', () => {
  const cipher = new SecretCipher({ current: NEW, previous: [] });

  it('seals and opens; the sealed value holds nothing of the plain one and differs every time (random IV)', () => {
    const first = cipher.seal('whsec_c2VjcmV0', 'whep_1');
    const second = cipher.seal('whsec_c2VjcmV0', 'whep_1');
    expect(first).toMatch(/^enc:v1:[0-9a-f]{8}:[A-Za-z0-9_-]+$/);
    expect(first).not.toContain('c2VjcmV0');
    expect(first).not.toBe(second);
    expect(cipher.open(first, 'whep_1')).toBe('whsec_c2VjcmV0');
    expect(cipher.isCurrent(first)).toBe(true);
  });

  it('is bound to its row: a value copied to another endpoint does not open', () => {
    const sealed = cipher.seal('whsec_x', 'whep_1');
    expect(() => cipher.open(sealed, 'whep_2')).toThrow(SecretCipherError);
  });

  it('refuses an altered value', () => {
    const sealed = cipher.seal('whsec_x', 'whep_1');
    const payload = Buffer.from(sealed.split(':')[3]!, 'base64url');
    payload[payload.length - 20]! ^= 1;
    const altered = `${sealed.split(':').slice(0, 3).join(':')}:${payload.toString('base64url')}`;
    expect(() => cipher.open(altered, 'whep_1')).toThrow(/does not open/);
  });

  it('opens values sealed with a previous key, which are not current; says which key is missing otherwise', () => {
    const before = new SecretCipher({ current: OLD, previous: [] }).seal('whsec_old', 'whep_1');
    const rotated = new SecretCipher({ current: NEW, previous: [OLD] });
    expect(rotated.open(before, 'whep_1')).toBe('whsec_old');
    expect(rotated.isCurrent(before)).toBe(false);
    expect(() => cipher.open(before, 'whep_1')).toThrow(/encrypted with key [0-9a-f]{8}, which is not configured: set ENCRYPTION_KEY or ENCRYPTION_KEY_PREVIOUS/);
  });

  it('passes a value stored before encryption through as it is (it is sealed on the next start)', () => {
    expect(cipher.open('whsec_plain', 'whep_1')).toBe('whsec_plain');
    expect(cipher.isCurrent('whsec_plain')).toBe(false);
  });
});
