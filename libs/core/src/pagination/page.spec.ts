import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '../errors/domain-error.js';
import { checkOffsetRequest, checkPageSize, MAX_OFFSET, offsetPage } from './page.js';

describe('offset pages', () => {
  it('defaults to limit 20 and offset 0', () => {
    expect(checkOffsetRequest({})).toEqual({ limit: 20, offset: 0 });
  });

  it('accepts limit 1 to 100 and any whole offset', () => {
    expect(checkOffsetRequest({ limit: 1, offset: 0 })).toEqual({ limit: 1, offset: 0 });
    expect(checkOffsetRequest({ limit: 100, offset: 12_345 })).toEqual({ limit: 100, offset: 12_345 });
    expect(checkOffsetRequest({ offset: MAX_OFFSET })).toEqual({ limit: 20, offset: MAX_OFFSET });
  });

  it.each([0, 101, 1.5, -1, Number.NaN])('refuses limit %p naming the field', (limit) => {
    expect(() => checkOffsetRequest({ limit })).toThrow(ValidationError);
    try {
      checkOffsetRequest({ limit });
    } catch (error) {
      expect((error as ValidationError).details?.[0]?.field).toBe('limit');
    }
  });

  // Past 2^53 - 1 a number is not exact; 1e20 does not fit PostgreSQL's bigint OFFSET at all.
  it.each([-1, 0.5, Number.NaN, MAX_OFFSET + 1, 1e20, Number.POSITIVE_INFINITY])('refuses offset %p naming the field', (offset) => {
    try {
      checkOffsetRequest({ offset });
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).details?.[0]?.field).toBe('offset');
    }
  });

  it('builds the envelope with the limit and offset used and the total', () => {
    expect(offsetPage(['a', 'b'], 7, { limit: 2, offset: 4 })).toEqual({ items: ['a', 'b'], limit: 2, offset: 4, total: 7 });
  });

  it('checkPageSize names the field it checks', () => {
    expect(() => checkPageSize(0, 'page_size')).toThrow('page_size must be an integer from 1 to 100');
  });
});
