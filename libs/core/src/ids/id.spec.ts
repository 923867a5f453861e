import { describe, expect, it } from '@jest/globals';
import { decodeTime } from 'ulidx';
import { ID_PREFIXES, type IdPrefix, isId, newId } from './id.js';

const CROCKFORD = /^[0-9A-HJKMNP-TV-Z]{26}$/;

describe('ID_PREFIXES', () => {
  it('includes every prefix of CONTRACT §1', () => {
    const contract = ['art', 'rev', 'drf', 'col', 'sect', 'help', 'tsk', 'tout', 'fb', 'hcusr', 'whep', 'whdl', 'evt', 'key'];
    for (const prefix of contract) expect(ID_PREFIXES).toContain(prefix);
  });

  it('has no duplicates and only lower-case letters', () => {
    expect(new Set(ID_PREFIXES).size).toBe(ID_PREFIXES.length);
    for (const prefix of ID_PREFIXES) expect(prefix).toMatch(/^[a-z]+$/);
  });
});

describe('newId', () => {
  it.each(ID_PREFIXES.map((prefix) => [prefix]))('makes %s_ + a 26-character ULID', (prefix) => {
    const id = newId(prefix);
    expect(id.startsWith(`${prefix}_`)).toBe(true);
    expect(id.slice(prefix.length + 1)).toMatch(CROCKFORD);
    expect(isId(id, prefix)).toBe(true);
  });

  it('is URL-safe', () => {
    const id = newId('art');
    expect(encodeURIComponent(id)).toBe(id);
  });

  it('carries the creation time', () => {
    const before = Date.now();
    const id = newId('evt');
    const after = Date.now();
    const time = decodeTime(id.slice('evt_'.length));
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(after);
  });

  it('is unique and sorts in creation order, even within one millisecond', () => {
    const ids = Array.from({ length: 10_000 }, () => newId('art'));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('sorts in creation order across prefixes of the same type only by suffix', () => {
    const first = newId('tsk');
    const second = newId('tsk');
    expect(first < second).toBe(true);
  });
});

describe('isId', () => {
  const suffix = '01JDXYZABCDEFGHJKMNPQRSTVW';

  it('accepts a well-formed ID of the right prefix', () => {
    expect(isId(`art_${suffix}`, 'art')).toBe(true);
  });

  it.each([
    ['another prefix', `col_${suffix}`, 'art'],
    ['a longer prefix sharing the start', `sectr_${suffix}`, 'sect'],
    ['a shorter prefix', `sect_${suffix}`, 'sectr'],
    ['no prefix', suffix, 'art'],
    ['an upper-case prefix', `ART_${suffix}`, 'art'],
    ['a lower-case suffix', `art_${suffix.toLowerCase()}`, 'art'],
    ['a suffix one character short', `art_${suffix.slice(1)}`, 'art'],
    ['a suffix one character long', `art_${suffix}A`, 'art'],
    ['the excluded letter I', `art_${suffix.slice(0, 25)}I`, 'art'],
    ['the excluded letter L', `art_${suffix.slice(0, 25)}L`, 'art'],
    ['the excluded letter O', `art_${suffix.slice(0, 25)}O`, 'art'],
    ['the excluded letter U', `art_${suffix.slice(0, 25)}U`, 'art'],
    ['a trailing newline', `art_${suffix}\n`, 'art'],
    ['a path', `art_${suffix}/x`, 'art'],
    ['the empty string', '', 'art'],
    ['a double prefix', `art_art_${suffix}`, 'art'],
  ] as Array<[string, string, IdPrefix]>)('rejects %s', (_label, value, prefix) => {
    expect(isId(value, prefix)).toBe(false);
  });
});
