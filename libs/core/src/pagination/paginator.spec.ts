import { describe, expect, it } from '@jest/globals';
import { InvalidCursorError, ValidationError } from '../errors/domain-error.js';
import { CursorCodec, type KeysetMode } from './cursor-codec.js';
import { checkPageSize, DEFAULT_PAGE_SIZE, type KeysetQuery, type KeysetSlice, MAX_PAGE_SIZE } from './page.js';
import { Paginator } from './paginator.js';

const SECRET = 'paginator-test-secret-0123456789abcdef';

interface Row {
  readonly id: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly title: string;
}

/** 53 rows, several sharing a timestamp so the id tiebreak matters. */
const ROWS: readonly Row[] = Array.from({ length: 53 }, (_, index) => {
  const created = new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(index / 3))).toISOString();
  const updated = new Date(Date.UTC(2026, 5, 1, 0, 0, 60 - Math.floor(index / 2))).toISOString();
  return { id: `art_${String(index).padStart(4, '0')}`, createdAt: created, updatedAt: updated, title: `Article ${index}` };
});

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** An in-memory keyset repository: orders by (sort value, id) and reads pageSize + 1 rows after the position. */
function readSlice(rows: readonly Row[], query: KeysetQuery): KeysetSlice<Row> {
  const valueOf = (row: Row): string => (query.mode === 'created_desc' ? row.createdAt : row.updatedAt);
  const descending = query.mode === 'created_desc' || query.mode === 'updated_desc';
  const sign = descending ? -1 : 1;
  const ordered = [...rows].sort((a, b) => sign * (compare(valueOf(a), valueOf(b)) || compare(a.id, b.id)));
  const after = query.after;
  const remaining =
    after === null
      ? ordered
      : ordered.filter((row) => sign * (compare(valueOf(row), String(after.value)) || compare(row.id, after.id)) > 0);
  const window = remaining.slice(0, query.pageSize + 1);
  return { rows: window.slice(0, query.pageSize), hasMore: window.length > query.pageSize };
}

describe('Paginator', () => {
  const codec = new CursorCodec(SECRET);
  const paginator = new Paginator(codec);
  const positionOf = (mode: KeysetMode) => (row: Row) => ({ value: mode === 'created_desc' ? row.createdAt : row.updatedAt, id: row.id });

  /** One API round: request → keyset query → repository → cursor page. */
  function fetchPage(list: string, request: { pageSize?: number; startCursor?: string }, defaultMode: KeysetMode = 'created_desc') {
    const query = paginator.query(list, request, defaultMode);
    const slice = readSlice(ROWS, query);
    return { query, page: paginator.page(list, query, slice, positionOf(query.mode), (row) => ({ id: row.id, title: row.title })) };
  }

  describe('query', () => {
    it('uses the default mode, page size 20 and no position for a first page', () => {
      expect(paginator.query('articles', {}, 'updated_desc')).toEqual({ mode: 'updated_desc', pageSize: DEFAULT_PAGE_SIZE, after: null });
      expect(DEFAULT_PAGE_SIZE).toBe(20);
    });

    it('takes the page size from the request', () => {
      expect(paginator.query('articles', { pageSize: 7 }, 'created_desc').pageSize).toBe(7);
    });

    it('takes mode and position from the cursor, ignoring the default mode on later pages', () => {
      const cursor = codec.encode('articles', { mode: 'updated_asc', value: '2026-01-01T00:00:00.000Z', id: 'art_0001' });
      expect(paginator.query('articles', { startCursor: cursor, pageSize: 5 }, 'created_desc')).toEqual({
        mode: 'updated_asc',
        pageSize: 5,
        after: { mode: 'updated_asc', value: '2026-01-01T00:00:00.000Z', id: 'art_0001' },
      });
    });

    it('rejects a cursor of another list', () => {
      const cursor = codec.encode('collections', { mode: 'created_desc', value: '2026-01-01T00:00:00.000Z', id: 'col_1' });
      expect(() => paginator.query('articles', { startCursor: cursor }, 'created_desc')).toThrow(InvalidCursorError);
    });

    it('rejects a cursor signed with another secret', () => {
      const cursor = new CursorCodec('some-other-secret-abcdefghijklmnopqrstuvwxyz').encode('articles', {
        mode: 'created_desc',
        value: '2026-01-01T00:00:00.000Z',
        id: 'art_1',
      });
      expect(() => paginator.query('articles', { startCursor: cursor }, 'created_desc')).toThrow(InvalidCursorError);
    });

    it.each(['', 'junk', 'a.b', '.'])('rejects the junk cursor %j', (cursor) => {
      expect(() => paginator.query('articles', { startCursor: cursor }, 'created_desc')).toThrow(InvalidCursorError);
    });

    it.each([1, 2, 50, MAX_PAGE_SIZE])('accepts page_size %p', (pageSize) => {
      expect(paginator.query('articles', { pageSize }, 'created_desc').pageSize).toBe(pageSize);
    });

    it.each([0, -1, MAX_PAGE_SIZE + 1, 1000, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects page_size %p with 400 details', (pageSize) => {
      let thrown: unknown;
      try {
        paginator.query('articles', { pageSize }, 'created_desc');
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ValidationError);
      const error = thrown as ValidationError;
      expect(error.code).toBe('invalid_request');
      expect(error.details).toEqual([{ field: 'page_size', message: expect.stringContaining('page_size') }]);
      expect(error.message).toContain(String(MAX_PAGE_SIZE));
    });

    it('checks page_size before looking at the cursor', () => {
      expect(() => paginator.query('articles', { pageSize: 0, startCursor: 'junk' }, 'created_desc')).toThrow(ValidationError);
    });
  });

  describe('page', () => {
    const query: KeysetQuery = { mode: 'updated_desc', pageSize: 2, after: null };
    const rows = ROWS.slice(0, 2);

    it('maps rows in order and gives a cursor after the last row when more follow', () => {
      const page = paginator.page('articles', query, { rows, hasMore: true }, positionOf('updated_desc'), (row) => row.title);
      expect(page.results).toEqual(['Article 0', 'Article 1']);
      expect(page.has_more).toBe(true);
      expect(page.next_cursor).toEqual(expect.any(String));
      expect(codec.decode('articles', page.next_cursor!)).toEqual({ mode: 'updated_desc', value: rows[1]!.updatedAt, id: rows[1]!.id });
    });

    it('gives next_cursor null and has_more false on the last page', () => {
      const page = paginator.page('articles', query, { rows, hasMore: false }, positionOf('updated_desc'), (row) => row.id);
      expect(page).toEqual({ results: [rows[0]!.id, rows[1]!.id], has_more: false, next_cursor: null });
    });

    it('gives an empty last page for an empty slice, even if the repository claimed more', () => {
      expect(paginator.page('articles', query, { rows: [], hasMore: false }, positionOf('updated_desc'), (row) => row)).toEqual({
        results: [],
        has_more: false,
        next_cursor: null,
      });
      expect(paginator.page('articles', query, { rows: [], hasMore: true }, positionOf('updated_desc'), (row) => row)).toEqual({
        results: [],
        has_more: false,
        next_cursor: null,
      });
    });

    it('binds the next cursor to its list', () => {
      const page = paginator.page('sections', query, { rows, hasMore: true }, positionOf('updated_desc'), (row) => row);
      expect(() => codec.decode('articles', page.next_cursor!)).toThrow(InvalidCursorError);
      expect(codec.decode('sections', page.next_cursor!).id).toBe(rows[1]!.id);
    });

    it('keeps numeric sort values numeric in the cursor', () => {
      const page = paginator.page('search', { mode: 'rank_desc', pageSize: 1, after: null }, { rows: [ROWS[0]!], hasMore: true }, () => ({ value: 0.75, id: 'art_0000' }), (row) => row.id);
      expect(codec.decode('search', page.next_cursor!)).toEqual({ mode: 'rank_desc', value: 0.75, id: 'art_0000' });
    });
  });

  describe('list', () => {
    it('reads the slice of the request\'s keyset query and returns it as a page', async () => {
      const request = { pageSize: 7, startCursor: fetchPage('articles', { pageSize: 7 }).page.next_cursor! };
      const queries: KeysetQuery[] = [];
      const read = async (query: KeysetQuery) => {
        queries.push(query);
        return readSlice(ROWS, query);
      };
      const page = await paginator.list('articles', request, 'updated_asc', read, positionOf('created_desc'), (row) => ({ id: row.id, title: row.title }));
      expect(queries).toEqual([paginator.query('articles', request, 'updated_asc')]);
      expect(page).toEqual(fetchPage('articles', request).page);
    });
  });

  describe('walking a whole list', () => {
    it.each([
      ['created_desc' as const, 20],
      ['created_desc' as const, 7],
      ['updated_asc' as const, 10],
      ['updated_desc' as const, 1],
      ['created_desc' as const, 53],
      ['created_desc' as const, 100],
    ])('visits every row exactly once in %s order with page size %p, ending with next_cursor null', (mode, pageSize) => {
      const seen: string[] = [];
      let request: { pageSize: number; startCursor?: string } = { pageSize };
      let pages = 0;
      for (;;) {
        const { query, page } = fetchPage('articles', request, mode);
        pages += 1;
        expect(query.mode).toBe(mode);
        expect(page.results.length).toBeLessThanOrEqual(pageSize);
        seen.push(...page.results.map((result) => result.id));
        expect(page.has_more).toBe(page.next_cursor !== null);
        if (page.next_cursor === null) break;
        expect(page.results.length).toBe(pageSize);
        request = { pageSize, startCursor: page.next_cursor };
        expect(pages).toBeLessThan(100);
      }
      expect(pages).toBe(Math.max(1, Math.ceil(ROWS.length / pageSize)));
      expect(new Set(seen).size).toBe(ROWS.length);
      const expected = readSlice(ROWS, { mode, pageSize: ROWS.length, after: null }).rows.map((row) => row.id);
      expect(seen).toEqual(expected);
    });

    it('keeps the mode of the first page on later pages whatever default the caller passes', () => {
      const first = fetchPage('articles', { pageSize: 10 }, 'updated_asc').page;
      const second = fetchPage('articles', { pageSize: 10, startCursor: first.next_cursor! }, 'created_desc');
      expect(second.query.mode).toBe('updated_asc');
      const third = fetchPage('articles', { pageSize: 10, startCursor: second.page.next_cursor! }, 'updated_desc');
      expect(third.query.mode).toBe('updated_asc');
    });

    it('may change page size between pages', () => {
      const first = fetchPage('articles', { pageSize: 5 }).page;
      const second = fetchPage('articles', { pageSize: 50, startCursor: first.next_cursor! }).page;
      expect(second.results).toHaveLength(48);
      expect(second.next_cursor).toBeNull();
    });
  });
});

describe('checkPageSize', () => {
  it('defaults to 20 and accepts 1 to 100', () => {
    expect(checkPageSize(undefined)).toBe(20);
    expect(checkPageSize(1)).toBe(1);
    expect(checkPageSize(100)).toBe(100);
    expect(MAX_PAGE_SIZE).toBe(100);
  });

  it('names the given field in the error', () => {
    let thrown: unknown;
    try {
      checkPageSize(101, 'limit');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).details).toEqual([{ field: 'limit', message: 'limit must be an integer from 1 to 100' }]);
  });
});
