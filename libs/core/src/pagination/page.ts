import { ValidationError } from '../errors/domain-error.js';
import type { CursorPosition, KeysetMode } from './cursor-codec.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/**
 * The largest `offset` of an offset list: the largest whole number a JSON number holds exactly
 * (2^53 - 1). Larger ones lose precision and, past 2^63 - 1, do not fit PostgreSQL's OFFSET (bigint).
 */
export const MAX_OFFSET = Number.MAX_SAFE_INTEGER;

/** Cursor page envelope of the API (source §2). */
export interface CursorPage<T> {
  readonly results: T[];
  readonly has_more: boolean;
  readonly next_cursor: string | null;
}

/** Offset page envelope of the API (source §2). */
export interface OffsetPage<T> {
  readonly items: T[];
  readonly limit: number;
  readonly offset: number;
  readonly total: number;
}

/** What a repository needs to read one keyset page. */
export interface KeysetQuery {
  readonly mode: KeysetMode;
  readonly pageSize: number;
  /** Position after which to continue, or null for the first page. */
  readonly after: CursorPosition | null;
}

/** A page read by a repository: `pageSize` rows plus whether another row followed. */
export interface KeysetSlice<T> {
  readonly rows: T[];
  readonly hasMore: boolean;
}

export function checkPageSize(value: number | undefined, field = 'page_size'): number {
  const size = value ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
    throw ValidationError.field(field, `${field} must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return size;
}

export interface OffsetRequest {
  readonly limit?: number;
  readonly offset?: number;
}

/** The validated `limit` (1-100, default 20) and `offset` (0 to MAX_OFFSET, default 0) of an offset list. */
export function checkOffsetRequest(request: OffsetRequest): { limit: number; offset: number } {
  const limit = checkPageSize(request.limit, 'limit');
  const offset = request.offset ?? 0;
  if (!Number.isSafeInteger(offset) || offset < 0) throw ValidationError.field('offset', `offset must be a whole number from 0 to ${MAX_OFFSET}`);
  return { limit, offset };
}

/** The API's offset page: the items, the page size used, the records skipped and the total that match. */
export function offsetPage<T>(items: T[], total: number, request: { limit: number; offset: number }): OffsetPage<T> {
  return { items, limit: request.limit, offset: request.offset, total };
}
