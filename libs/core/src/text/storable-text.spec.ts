import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '../errors/domain-error.js';
import { findUnstorableText, isStorableText, toStorableText, unstorableTextError, unstorableTextReason } from './storable-text.js';

describe('storable text', () => {
  it.each([
    ['plain text', 'Reset your password'],
    ['the empty string', ''],
    ['a surrogate pair (emoji)', '🔑 \ud83d\ude00'],
    ['the replacement character and other controls', '\ufffd \u0001 \u001f \u007f \u202e \ufeff'],
    ['the last code point', '\u{10ffff}'],
  ])('accepts %s', (_label, value) => {
    expect(isStorableText(value)).toBe(true);
    expect(unstorableTextReason(value)).toBeNull();
    expect(toStorableText(value)).toBe(value);
  });

  it.each([
    ['NUL', 'a\u0000b', /NUL character \(U\+0000\)/],
    ['a lone high surrogate', 'a\ud800', /unpaired surrogate \(U\+D800\)/],
    ['a lone high surrogate before another high one', '\ud83d\ud83d\ude00', /unpaired surrogate \(U\+D83D\)/],
    ['a lone low surrogate', '\udfffz', /unpaired surrogate \(U\+DFFF\)/],
    ['a reversed pair', '\ude00\ud83d', /unpaired surrogate \(U\+DE00\)/],
  ])('refuses %s, saying why', (_label, value, reason) => {
    expect(isStorableText(value)).toBe(false);
    expect(unstorableTextReason(value)).toMatch(reason);
  });

  it('replaces NUL and unpaired surrogates with U+FFFD and keeps pairs', () => {
    expect(toStorableText('a\u0000b\ud800c\udc00\ud83d\ude00\ude00\ud83d')).toBe('a\ufffdb\ufffdc\ufffd\ud83d\ude00\ufffd\ufffd');
  });

  it('names every field at any depth, keys too, in document order', () => {
    const body = { title: 'ok', content: { content: [{ text: 'fine' }, { text: 'a\u0000' }] }, events: ['x', '\ud800'], ['k\u0000']: 1, n: 5, z: null };
    expect(findUnstorableText(body)).toEqual([
      { field: 'body', message: 'property names in the body must not contain the NUL character (U+0000)' },
      { field: 'content.content[1].text', message: 'content.content[1].text must not contain the NUL character (U+0000)' },
      { field: 'events[1]', message: 'events[1] must be valid Unicode text: it contains an unpaired surrogate (U+D800)' },
    ]);
  });

  it('names a query or path parameter by its name', () => {
    expect(findUnstorableText('a\u0000', 'id')).toEqual([{ field: 'id', message: 'id must not contain the NUL character (U+0000)' }]);
    expect(findUnstorableText({ locales: ['fr', '\u0000'] })[0]?.field).toBe('locales[1]');
  });

  it('walks any depth without recursion and stops at the limit', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnstorableText(deep)).toHaveLength(1);
    expect(findUnstorableText(Array.from({ length: 500 }, () => '\u0000'))).toHaveLength(50);
  });

  it('is a 400 invalid_request with the details, or null for storable input', () => {
    expect(unstorableTextError({ a: 'ok', b: [1, true, null] })).toBeNull();
    const error = unstorableTextError({ name: '\ud800' });
    expect(error).toBeInstanceOf(ValidationError);
    expect(error?.code).toBe('invalid_request');
    expect(error?.message).toBe('name must be valid Unicode text: it contains an unpaired surrogate (U+D800)');
    expect(error?.details).toEqual([{ field: 'name', message: error?.message }]);
  });
});
