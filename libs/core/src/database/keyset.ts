import type { KeysetMode } from '../pagination/cursor-codec.js';
import type { KeysetQuery, KeysetSlice } from '../pagination/page.js';
import type { TransactionHost } from './transaction.js';

/** Sort column (an SQL expression on the list's alias) per ordering a list supports. */
export type KeysetColumns = Partial<Record<KeysetMode, string>>;

const DESCENDING: ReadonlySet<KeysetMode> = new Set(['created_desc', 'updated_desc', 'rank_desc']);

export interface KeysetList {
  /** `SELECT <columns> FROM <table> <alias>`. */
  readonly select: string;
  /** The list's alias, whose `id` column breaks ties. */
  readonly alias: string;
  /** Filters, with `$1…$n` placeholders numbered after each other, and their values. */
  readonly conditions?: readonly string[];
  readonly params?: readonly unknown[];
  readonly columns: KeysetColumns;
}

/**
 * Reads one keyset page: `WHERE (sort, id) > / < ($v, $id) ORDER BY sort, id LIMIT size + 1`. Deep pages cost
 * the same as the first (no OFFSET). Plain SQL: list reads are the hot path, and the ORM's per-row entity
 * mapping costs more than the query itself on a page of 100.
 */
export async function readKeysetRows<R>(db: TransactionHost, list: KeysetList, query: KeysetQuery): Promise<KeysetSlice<R>> {
  const column = list.columns[query.mode];
  if (!column) throw new Error(`List does not support ordering ${query.mode}`);
  const id = `${list.alias}.id`;
  const direction = DESCENDING.has(query.mode) ? 'DESC' : 'ASC';
  const conditions = [...(list.conditions ?? [])];
  const params: unknown[] = [...(list.params ?? [])];
  if (query.after) {
    params.push(query.after.value, query.after.id);
    conditions.push(`(${column}, ${id}) ${direction === 'DESC' ? '<' : '>'} ($${params.length - 1}, $${params.length})`);
  }
  params.push(query.pageSize + 1);
  const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
  const rows = await db.query<R>(`${list.select}${where} ORDER BY ${column} ${direction}, ${id} ${direction} LIMIT $${params.length}`, params);
  const hasMore = rows.length > query.pageSize;
  return { rows: hasMore ? rows.slice(0, query.pageSize) : rows, hasMore };
}
