import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { KeysetMode } from '../pagination/cursor-codec.js';
import type { KeysetQuery, KeysetSlice } from '../pagination/page.js';

/** Sort column (an SQL expression on the query's alias) per ordering a list supports. */
export type KeysetColumns = Partial<Record<KeysetMode, string>>;

const DESCENDING: ReadonlySet<KeysetMode> = new Set(['created_desc', 'updated_desc', 'rank_desc']);

/**
 * Reads one keyset page: `WHERE (sort, id) > / < (:value, :id) ORDER BY sort, id LIMIT size + 1`.
 * Deep pages cost the same as the first (no OFFSET).
 */
export async function readKeysetSlice<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  query: KeysetQuery,
  columns: KeysetColumns,
): Promise<KeysetSlice<T>> {
  const column = columns[query.mode];
  if (!column) throw new Error(`List does not support ordering ${query.mode}`);
  const id = `${qb.alias}.id`;
  const direction = DESCENDING.has(query.mode) ? 'DESC' : 'ASC';
  if (query.after) {
    const operator = direction === 'DESC' ? '<' : '>';
    qb.andWhere(`(${column}, ${id}) ${operator} (:keysetValue, :keysetId)`, {
      keysetValue: query.after.value,
      keysetId: query.after.id,
    });
  }
  const rows = await qb
    .orderBy(column, direction)
    .addOrderBy(id, direction)
    .take(undefined)
    .limit(query.pageSize + 1)
    .getMany();
  const hasMore = rows.length > query.pageSize;
  return { rows: hasMore ? rows.slice(0, query.pageSize) : rows, hasMore };
}
