import { CursorCodec, type CursorPosition, type KeysetMode } from './cursor-codec.js';
import { checkPageSize, type CursorPage, type KeysetQuery, type KeysetSlice } from './page.js';

export interface CursorRequest {
  readonly pageSize?: number;
  readonly startCursor?: string;
}

/**
 * Turns `page_size` + `start_cursor` into a keyset query and a repository slice back into the API's cursor page.
 * Provided with the app secret; every cursor list goes through it.
 */
export class Paginator {
  constructor(private readonly codec: CursorCodec) {}

  /** `defaultMode` applies to a first page; a cursor carries its own mode. */
  query(list: string, request: CursorRequest, defaultMode: KeysetMode): KeysetQuery {
    const pageSize = checkPageSize(request.pageSize);
    if (request.startCursor === undefined) return { mode: defaultMode, pageSize, after: null };
    const after = this.codec.decode(list, request.startCursor);
    return { mode: after.mode, pageSize, after };
  }

  /**
   * One page of a cursor list: the request as a keyset query (`defaultMode` for a first page), the slice `read`
   * loads for it, and that slice as a page (as `page` does).
   */
  async list<T, R>(
    list: string,
    request: CursorRequest,
    defaultMode: KeysetMode,
    read: (query: KeysetQuery) => Promise<KeysetSlice<T>>,
    position: (row: T) => Omit<CursorPosition, 'mode'>,
    map: (row: T) => R,
  ): Promise<CursorPage<R>> {
    const query = this.query(list, request, defaultMode);
    return this.page(list, query, await read(query), position, map);
  }

  page<T, R>(list: string, query: KeysetQuery, slice: KeysetSlice<T>, position: (row: T) => Omit<CursorPosition, 'mode'>, map: (row: T) => R): CursorPage<R> {
    const last = slice.rows.at(-1);
    const next = slice.hasMore && last !== undefined ? this.codec.encode(list, { mode: query.mode, ...position(last) }) : null;
    return { results: slice.rows.map(map), has_more: next !== null, next_cursor: next };
  }
}
