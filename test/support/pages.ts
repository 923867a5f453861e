import { expect } from '@jest/globals';
import type { Response } from 'supertest';
import { bearer, type TestApp } from './app.js';
import { outcome } from './outcome.js';

/** Every item of a cursor-paged list (all pages, 100 a page), with the same query on each page. */
export async function allItems<T>(t: TestApp, path: string, query: Record<string, string>, key: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const res: Response = await t.http
      .get(path)
      .query({ page_size: '100', ...query, ...(cursor ? { start_cursor: cursor } : {}) })
      .set(bearer(key));
    expect(outcome(res)).toMatchObject({ status: 200 });
    items.push(...(res.body.results as T[]));
    cursor = res.body.next_cursor;
  } while (cursor);
  return items;
}
