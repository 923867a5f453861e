import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { API_KEY_PREFIX, ApiKey, type ApiKeyProps } from './api-key.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('ApiKey.mint', () => {
  it('makes hck_ + 43 base62 characters', () => {
    const { plain } = ApiKey.mint();
    expect(API_KEY_PREFIX).toBe('hck_');
    expect(plain).toMatch(/^hck_[0-9A-Za-z]{43}$/);
    expect(plain).toHaveLength(47);
  });

  it('meets the contract minimum of 40 random characters', () => {
    expect(ApiKey.mint().plain.length - API_KEY_PREFIX.length).toBeGreaterThanOrEqual(40);
  });

  it('returns the SHA-256 hex hash of the full key, and its last four characters', () => {
    const { plain, hash, lastFour } = ApiKey.mint();
    expect(hash).toBe(createHash('sha256').update(plain, 'utf8').digest('hex'));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(lastFour).toBe(plain.slice(-4));
    expect(lastFour).toMatch(/^[0-9A-Za-z]{4}$/);
  });

  it('never returns the same key twice over many mints', () => {
    const plains = new Set<string>();
    const hashes = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const { plain, hash } = ApiKey.mint();
      plains.add(plain);
      hashes.add(hash);
    }
    expect(plains.size).toBe(5000);
    expect(hashes.size).toBe(5000);
  });

  it('uses the whole base62 alphabet roughly uniformly', () => {
    const counts = new Map<string, number>();
    const mints = 2000;
    for (let i = 0; i < mints; i++) {
      for (const char of ApiKey.mint().plain.slice(API_KEY_PREFIX.length)) counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    expect([...counts.keys()].sort().join('')).toBe([...BASE62].sort().join(''));
    const expected = (mints * 43) / 62; // ≈ 1387 per character
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(expected * 0.75);
      expect(count).toBeLessThan(expected * 1.25);
    }
  });

  it('mints keys that pass looksValid', () => {
    for (let i = 0; i < 100; i++) expect(ApiKey.looksValid(ApiKey.mint().plain)).toBe(true);
  });
});

describe('ApiKey.hash', () => {
  it('is hex SHA-256 of the exact input', () => {
    expect(ApiKey.hash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(ApiKey.hash('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('is deterministic and sensitive to every character (including the prefix)', () => {
    const { plain, hash } = ApiKey.mint();
    expect(ApiKey.hash(plain)).toBe(hash);
    expect(ApiKey.hash(plain.slice(API_KEY_PREFIX.length))).not.toBe(hash);
    expect(ApiKey.hash(`${plain} `)).not.toBe(hash);
    expect(ApiKey.hash(plain.toUpperCase())).not.toBe(hash);
  });
});

describe('ApiKey.looksValid', () => {
  it.each([
    ['40 base62 characters', `hck_${'a'.repeat(40)}`],
    ['128 base62 characters', `hck_${'Z9'.repeat(64)}`],
    ['a minted-length key', `hck_${'0aZ'.repeat(14)}x`],
  ])('accepts %s', (_label, value) => {
    expect(ApiKey.looksValid(value)).toBe(true);
  });

  it.each([
    ['the empty string', ''],
    ['the prefix alone', 'hck_'],
    ['39 characters', `hck_${'a'.repeat(39)}`],
    ['129 characters', `hck_${'a'.repeat(129)}`],
    ['no prefix', 'a'.repeat(47)],
    ['an upper-case prefix', `HCK_${'a'.repeat(43)}`],
    ['another prefix', `sk_live_${'a'.repeat(43)}`],
    ['a doubled prefix with underscore in the secret', `hck_hck_${'a'.repeat(43)}`],
    ['a dash', `hck_${'a'.repeat(42)}-`],
    ['an underscore', `hck_${'a'.repeat(42)}_`],
    ['a space', `hck_${'a'.repeat(42)} `],
    ['a leading space', ` hck_${'a'.repeat(43)}`],
    ['a newline', `hck_${'a'.repeat(43)}\n`],
    ['non-ASCII letters', `hck_${'ä'.repeat(43)}`],
    ['a Bearer prefix left in', `Bearer hck_${'a'.repeat(43)}`],
  ])('rejects %s', (_label, value) => {
    expect(ApiKey.looksValid(value)).toBe(false);
  });
});

describe('ApiKey', () => {
  const props: ApiKeyProps = {
    id: 'key_01JDXYZABCDEFGHJKMNPQRSTVW',
    name: 'ci',
    keyHash: ApiKey.hash('hck_x'),
    lastFour: 'abcd',
    scopes: ['content:read'],
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
    lastUsedAt: null,
    revokedAt: null,
    expiresAt: null,
    createdBy: 'cli (ops)',
  };

  it('exposes its id and is not revoked without revokedAt', () => {
    const key = new ApiKey(props);
    expect(key.id).toBe(props.id);
    expect(key.revoked).toBe(false);
  });

  it('is revoked once revokedAt is set', () => {
    expect(new ApiKey({ ...props, revokedAt: new Date('2026-02-01T00:00:00.000Z') }).revoked).toBe(true);
  });

  it('a key without expiry never expires', () => {
    expect(new ApiKey(props).usableAt(new Date('2999-01-01T00:00:00.000Z'))).toBe(true);
  });

  it('expires at its expiry instant, not before', () => {
    const key = new ApiKey({ ...props, expiresAt: new Date('2026-03-01T00:00:00.000Z') });
    expect(key.usableAt(new Date('2026-02-28T23:59:59.999Z'))).toBe(true);
    expect(key.expiredAt(new Date('2026-03-01T00:00:00.000Z'))).toBe(true);
    expect(key.usableAt(new Date('2026-03-01T00:00:00.000Z'))).toBe(false);
  });

  it('a revoked key is not usable, expiry or not', () => {
    expect(new ApiKey({ ...props, revokedAt: new Date('2026-02-01T00:00:00.000Z') }).usableAt(new Date('2026-01-02T00:00:00.000Z'))).toBe(false);
  });

  describe('checkExpiry', () => {
    const now = new Date('2026-01-01T00:00:00.000Z');

    it('accepts no expiry and one in the future', () => {
      expect(ApiKey.checkExpiry(null, now)).toBeNull();
      const later = new Date('2026-01-01T00:00:01.000Z');
      expect(ApiKey.checkExpiry(later, now)).toBe(later);
    });

    it.each([
      ['now', new Date('2026-01-01T00:00:00.000Z'), 'must be in the future'],
      ['the past', new Date('2025-12-31T00:00:00.000Z'), 'must be in the future'],
      ['an invalid date', new Date('not a date'), 'must be a date'],
    ])('refuses %s with a validation error naming expires_at', (_label, expiresAt, message) => {
      let thrown: unknown;
      try {
        ApiKey.checkExpiry(expiresAt, now);
      } catch (error) {
        thrown = error;
      }
      expect((thrown as { code: string }).code).toBe('invalid_request');
      expect((thrown as { details: Array<{ field: string; message: string }> }).details).toEqual([{ field: 'expires_at', message: expect.stringContaining(message) }]);
    });
  });
});
