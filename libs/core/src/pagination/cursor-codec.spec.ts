import { describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { DomainError, InvalidCursorError } from '../errors/domain-error.js';
import { CursorCodec, type CursorPosition, type KeysetMode } from './cursor-codec.js';

const SECRET = 'cursor-test-secret-0123456789abcdefghij';
const OTHER_SECRET = 'another-secret-9876543210zyxwvutsrqpon';
const MODES: readonly KeysetMode[] = ['created_desc', 'updated_asc', 'updated_desc', 'position_asc', 'rank_desc'];
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const position: CursorPosition = { mode: 'created_desc', value: '2026-11-22T10:00:00.000Z', id: 'art_01JDXYZABCDEFGHJKMNPQRSTVW' };

/** Signs an arbitrary body the way the codec does, to build cursors that pass the HMAC but carry odd payloads. */
function signLikeCodec(secret: string, body: string): string {
  const key = createHmac('sha256', 'help-center-cursor').update(secret).digest();
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

function b64(value: string): string {
  return Buffer.from(value).toString('base64url');
}

function expectInvalidCursor(fn: () => unknown): InvalidCursorError {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(InvalidCursorError);
  expect((thrown as DomainError).code).toBe('invalid_cursor');
  return thrown as InvalidCursorError;
}

describe('CursorCodec', () => {
  const codec = new CursorCodec(SECRET);

  describe('round trip', () => {
    it.each(MODES)('decodes what it encoded (mode %s, string value)', (mode) => {
      const cursor = codec.encode('articles', { ...position, mode });
      expect(codec.decode('articles', cursor)).toEqual({ ...position, mode });
    });

    it('keeps numeric sort values as numbers', () => {
      for (const value of [0, 3, -7, 0.125, 1e21, Number.MAX_SAFE_INTEGER]) {
        const decoded = codec.decode('search', codec.encode('search', { mode: 'rank_desc', value, id: 'art_1' }));
        expect(decoded.value).toBe(value);
        expect(typeof decoded.value).toBe('number');
      }
    });

    it('keeps a numeric-looking string value a string', () => {
      const decoded = codec.decode('sections', codec.encode('sections', { mode: 'position_asc', value: '42', id: 'sect_1' }));
      expect(decoded.value).toBe('42');
    });

    it('carries non-ASCII and JSON-special characters intact', () => {
      const odd = { mode: 'updated_asc' as const, value: 'ünïcødé "quoted" \\ .dots. 🎉', id: 'id.with.dots"and\\slashes' };
      expect(codec.decode('list', codec.encode('list', odd))).toEqual(odd);
    });

    it('returns only mode, value and id (not the list name)', () => {
      const decoded = codec.decode('articles', codec.encode('articles', position));
      expect(Object.keys(decoded).sort()).toEqual(['id', 'mode', 'value']);
    });

    it('is accepted by another codec built from the same secret (another process)', () => {
      const cursor = codec.encode('articles', position);
      expect(new CursorCodec(SECRET).decode('articles', cursor)).toEqual(position);
    });

    it('is deterministic for the same input', () => {
      expect(codec.encode('articles', position)).toBe(codec.encode('articles', position));
    });
  });

  describe('shape', () => {
    it('is URL-safe: base64url body and signature joined by one dot', () => {
      const cursor = codec.encode('articles', position);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
      expect(encodeURIComponent(cursor)).toBe(cursor);
    });

    it('does not show its contents in plain text', () => {
      const cursor = codec.encode('articles', position);
      expect(cursor).not.toContain(position.id);
      expect(cursor).not.toContain('created_desc');
    });

    it('stays well under the 1024-character decode limit for realistic positions', () => {
      const cursor = codec.encode('collection-sections', { mode: 'updated_desc', value: '2026-11-22T10:00:00.000Z', id: 'sectr_01JDXYZABCDEFGHJKMNPQRSTVW' });
      expect(cursor.length).toBeLessThan(300);
    });

    it('depends on the list, the position and the secret', () => {
      const cursor = codec.encode('articles', position);
      expect(codec.encode('collections', position)).not.toBe(cursor);
      expect(codec.encode('articles', { ...position, id: 'art_other' })).not.toBe(cursor);
      expect(codec.encode('articles', { ...position, mode: 'updated_desc' })).not.toBe(cursor);
      expect(new CursorCodec(OTHER_SECRET).encode('articles', position)).not.toBe(cursor);
    });
  });

  describe('tampering', () => {
    const cursor = codec.encode('articles', position);

    it('rejects every single-character change anywhere in the cursor', () => {
      let checked = 0;
      for (let index = 0; index < cursor.length; index++) {
        for (const replacement of ['A', 'z', '0', '-', '_', '.']) {
          if (cursor[index] === replacement) continue;
          const tampered = cursor.slice(0, index) + replacement + cursor.slice(index + 1);
          expectInvalidCursor(() => codec.decode('articles', tampered));
          checked += 1;
        }
      }
      expect(checked).toBeGreaterThan(cursor.length * 4);
    });

    it('rejects a cursor with a single bit flipped in any character', () => {
      for (let index = 0; index < cursor.length; index++) {
        const flipped = String.fromCharCode(cursor.charCodeAt(index) ^ 1);
        const tampered = cursor.slice(0, index) + flipped + cursor.slice(index + 1);
        expectInvalidCursor(() => codec.decode('articles', tampered));
      }
    });

    it('rejects a payload edited and re-encoded without the secret', () => {
      const [, signature] = cursor.split('.');
      const forgedBody = b64(JSON.stringify({ l: 'articles', m: 'created_desc', v: '2099-01-01T00:00:00.000Z', i: 'art_forged' }));
      expectInvalidCursor(() => codec.decode('articles', `${forgedBody}.${signature}`));
    });

    it('rejects a cursor issued (signed) with another secret', () => {
      const foreign = new CursorCodec(OTHER_SECRET).encode('articles', position);
      expectInvalidCursor(() => codec.decode('articles', foreign));
    });

    it('rejects an edited payload re-signed with another secret', () => {
      const resigned = signLikeCodec(OTHER_SECRET, b64(JSON.stringify({ l: 'articles', m: 'created_desc', v: 'x', i: 'art_forged' })));
      expectInvalidCursor(() => codec.decode('articles', resigned));
    });

    it('rejects truncated, extended or missing signatures', () => {
      const [body, signature] = cursor.split('.') as [string, string];
      expectInvalidCursor(() => codec.decode('articles', `${body}.${signature.slice(0, -1)}`));
      expectInvalidCursor(() => codec.decode('articles', `${body}.${signature}A`));
      expectInvalidCursor(() => codec.decode('articles', `${body}.`));
      expectInvalidCursor(() => codec.decode('articles', body));
      expectInvalidCursor(() => codec.decode('articles', `${body}.${signature}.${signature}`));
      expectInvalidCursor(() => codec.decode('articles', `.${signature}`));
    });

    it('rejects the signature of another cursor', () => {
      const other = codec.encode('articles', { ...position, id: 'art_other' });
      const [body] = cursor.split('.');
      const [, otherSignature] = other.split('.');
      expectInvalidCursor(() => codec.decode('articles', `${body}.${otherSignature}`));
    });
  });

  describe('foreign lists', () => {
    it('rejects a cursor of list A used on list B, saying so', () => {
      const cursor = codec.encode('collections', position);
      const error = expectInvalidCursor(() => codec.decode('sections', cursor));
      expect(error.message).toMatch(/different list/);
      expect(codec.decode('collections', cursor)).toEqual(position);
    });

    it('compares list names exactly', () => {
      const cursor = codec.encode('articles', position);
      expectInvalidCursor(() => codec.decode('Articles', cursor));
      expectInvalidCursor(() => codec.decode('articles ', cursor));
      expectInvalidCursor(() => codec.decode('', cursor));
    });
  });

  describe('junk', () => {
    it.each([
      '',
      '.',
      '..',
      'abc',
      'a.b',
      'a.b.c',
      'null',
      'undefined',
      '%00',
      ' ',
      '🎉.🎉',
      'eyJsIjoiYXJ0aWNsZXMifQ',
      'x'.repeat(2000),
      `${'a'.repeat(1000)}.${'b'.repeat(43)}`,
    ])('rejects %j', (junk) => {
      expectInvalidCursor(() => codec.decode('articles', junk));
    });

    it('rejects a validly signed body that is not JSON', () => {
      expectInvalidCursor(() => codec.decode('articles', signLikeCodec(SECRET, b64('not json {'))));
      expectInvalidCursor(() => codec.decode('articles', signLikeCodec(SECRET, '!!!not-base64!!!')));
    });

    it.each([
      ['an unknown mode', { l: 'articles', m: 'id_asc', v: 'x', i: 'art_1' }],
      ['a missing mode', { l: 'articles', v: 'x', i: 'art_1' }],
      ['a numeric id', { l: 'articles', m: 'created_desc', v: 'x', i: 5 }],
      ['a missing id', { l: 'articles', m: 'created_desc', v: 'x' }],
      ['an object value', { l: 'articles', m: 'created_desc', v: { $gt: 1 }, i: 'art_1' }],
      ['a null value', { l: 'articles', m: 'created_desc', v: null, i: 'art_1' }],
      ['a boolean value', { l: 'articles', m: 'created_desc', v: true, i: 'art_1' }],
      ['a missing list', { m: 'created_desc', v: 'x', i: 'art_1' }],
    ])('rejects a validly signed payload with %s', (_label, payload) => {
      expectInvalidCursor(() => codec.decode('articles', signLikeCodec(SECRET, b64(JSON.stringify(payload)))));
    });

    it.each([['a JSON string', '"articles"'], ['a JSON number', '42'], ['a JSON array', '["articles"]']])(
      'rejects a validly signed body holding %s',
      (_label, json) => {
        expectInvalidCursor(() => codec.decode('articles', signLikeCodec(SECRET, b64(json))));
      },
    );

    it('rejects a validly signed body holding JSON null', () => {
      expectInvalidCursor(() => codec.decode('articles', signLikeCodec(SECRET, b64('null'))));
    });

    it('rejects every random base64url string', () => {
      let seed = 7;
      const random = (): number => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed / 2 ** 31;
      };
      for (let round = 0; round < 200; round++) {
        const part = (length: number): string => Array.from({ length }, () => BASE64URL[Math.floor(random() * 64)]).join('');
        expectInvalidCursor(() => codec.decode('articles', `${part(20 + (round % 60))}.${part(43)}`));
      }
    });
  });
});
