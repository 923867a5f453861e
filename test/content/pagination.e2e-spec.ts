import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { outcome } from '../support/outcome.js';

interface Page<T> {
  results: T[];
  has_more: boolean;
  next_cursor: string | null;
}

interface Item {
  id: string;
  createdAt: string;
  position: number;
  sectionId: string | null;
  title: string;
  name: string;
}

describe('cursor pagination of collections and sections', () => {
  let t: TestApp;
  let key: string;
  let reader: string;
  /** The 45 collections of the main walk, in creation order (oldest first). */
  let created: Item[];

  async function page(path: string, query: Record<string, string | number>): Promise<Page<Item>> {
    const res = await t.http.get(path).query(query).set(bearer(reader));
    expect(outcome(res)).toMatchObject({ status: 200 });
    expect(Object.keys(res.body).sort()).toEqual(['has_more', 'next_cursor', 'results']);
    return res.body;
  }

  /** Follows next_cursor from the first page to the last; returns the pages. */
  async function walk(path: string, query: Record<string, string | number>): Promise<Array<Page<Item>>> {
    const pages: Array<Page<Item>> = [];
    let cursor: string | null = null;
    do {
      const current: Page<Item> = await page(path, { ...query, ...(cursor ? { start_cursor: cursor } : {}) });
      pages.push(current);
      cursor = current.next_cursor;
      expect(pages.length).toBeLessThan(200);
    } while (cursor);
    return pages;
  }

  async function createCollection(body: Record<string, unknown>): Promise<Item> {
    return (await t.http.post('/v1/collections').set(bearer(key)).send(body).expect(201)).body;
  }

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_REQUESTS_PER_MINUTE: '100000' } });
    key = await t.key(['content:write']);
    reader = await t.key(['content:read']);
    created = [];
    // One at a time, so creation order is well defined.
    for (let i = 0; i < 45; i++) created.push(await createCollection({ title: `Collection ${String(i).padStart(2, '0')}` }));
  });
  afterAll(() => t.close());

  describe('collections', () => {
    it('walking 45 collections with page_size 10 returns each exactly once, newest first; the last page says so', async () => {
      const pages = await walk('/v1/collections', { page_size: 10 });
      expect(pages.map((p) => p.results.length)).toEqual([10, 10, 10, 10, 5]);
      for (const p of pages.slice(0, -1)) {
        expect(p.has_more).toBe(true);
        expect(typeof p.next_cursor).toBe('string');
      }
      const last = pages.at(-1)!;
      expect(last.has_more).toBe(false);
      expect(last.next_cursor).toBeNull();

      const ids = pages.flatMap((p) => p.results.map((c) => c.id));
      expect(new Set(ids).size).toBe(45);
      expect(ids).toEqual(created.map((c) => c.id).reverse());
      // Newest first by (createdAt, id).
      const keys = pages.flatMap((p) => p.results.map((c) => [c.createdAt, c.id] as const));
      for (let i = 1; i < keys.length; i++) {
        const [prev, cur] = [keys[i - 1]!, keys[i]!];
        expect(prev[0] > cur[0] || (prev[0] === cur[0] && prev[1] > cur[1])).toBe(true);
      }
    });

    it('when the total is a multiple of page_size the last full page has has_more false and next_cursor null', async () => {
      const pages = await walk('/v1/collections', { page_size: 15 });
      expect(pages.map((p) => p.results.length)).toEqual([15, 15, 15]);
      expect(pages[2]).toMatchObject({ has_more: false, next_cursor: null });
    });

    it('page_size 100 returns everything on one page; the default page size is 20', async () => {
      const all = await page('/v1/collections', { page_size: 100 });
      expect(all.results).toHaveLength(45);
      expect(all).toMatchObject({ has_more: false, next_cursor: null });
      const first = await page('/v1/collections', {});
      expect(first.results).toHaveLength(20);
      expect(first.has_more).toBe(true);
    });

    it('page_size 1 walks one at a time', async () => {
      const pages = await walk('/v1/collections', { page_size: 1 });
      expect(pages).toHaveLength(45);
      expect(pages.map((p) => p.results[0]!.id)).toEqual(created.map((c) => c.id).reverse());
    });

    it('a later page may use another page_size', async () => {
      const first = await page('/v1/collections', { page_size: 10 });
      const second = await page('/v1/collections', { page_size: 30, start_cursor: first.next_cursor! });
      expect(second.results.map((c) => c.id)).toEqual(created.map((c) => c.id).reverse().slice(10, 40));
    });

    describe('page_size out of range or not an integer → 400 invalid_request', () => {
      it.each(['0', '101', '-1', '1.5', 'abc', '', '10abc'])('page_size=%p', async (value) => {
        const res = await t.http.get(`/v1/collections?page_size=${value}`).set(bearer(reader));
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request', error: expect.any(String) } });
      });

      it('twice', async () => {
        const res = await t.http.get('/v1/collections?page_size=10&page_size=20').set(bearer(reader));
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      });
    });

    it('a next_cursor keeps working after new collections are created: the old ones come once each, the new ones not at all', async () => {
      const first = await page('/v1/collections', { page_size: 10 });
      const fresh: Item[] = [];
      for (let i = 0; i < 5; i++) fresh.push(await createCollection({ title: `Late ${i}` }));
      const rest: string[] = [];
      let cursor: string | null = first.next_cursor;
      while (cursor) {
        const next: Page<Item> = await page('/v1/collections', { page_size: 10, start_cursor: cursor });
        rest.push(...next.results.map((c) => c.id));
        cursor = next.next_cursor;
      }
      const seen = [...first.results.map((c) => c.id), ...rest];
      const old = created.map((c) => c.id).reverse();
      expect(seen).toEqual(old);
      for (const c of fresh) expect(seen).not.toContain(c.id);
      // A walk from the start sees the new ones first.
      const again = (await walk('/v1/collections', { page_size: 50 })).flatMap((p) => p.results.map((c) => c.id));
      expect(again.slice(0, 5)).toEqual(fresh.map((c) => c.id).reverse());
      for (const c of fresh) await t.http.delete(`/v1/collections/${c.id}`).set(bearer(key)).expect(200);
    });

    it('a next_cursor keeps working when the last collection of its page is deleted', async () => {
      const victim = await createCollection({ title: 'Victim' });
      const filler = await createCollection({ title: 'Filler' });
      const first = await page('/v1/collections', { page_size: 2 });
      expect(first.results.map((c) => c.id)).toEqual([filler.id, victim.id]);
      await t.http.delete(`/v1/collections/${victim.id}`).set(bearer(key)).expect(200);
      const second = await page('/v1/collections', { page_size: 2, start_cursor: first.next_cursor! });
      expect(second.results.map((c) => c.id)).toEqual([created.at(-1)!.id, created.at(-2)!.id]);
      await t.http.delete(`/v1/collections/${filler.id}`).set(bearer(key)).expect(200);
    });

    it('the section_id filter paginates within the section', async () => {
      const section = (await t.http.post('/v1/sections').set(bearer(key)).send({ name: 'Paged' }).expect(201)).body.id;
      const inside: Item[] = [];
      for (let i = 0; i < 12; i++) inside.push(await createCollection({ title: `Inside ${i}`, sectionId: section }));
      const pages = await walk('/v1/collections', { page_size: 5, section_id: section });
      expect(pages.map((p) => p.results.length)).toEqual([5, 5, 2]);
      const results = pages.flatMap((p) => p.results);
      for (const c of results) expect(c.sectionId).toBe(section);
      expect(results.map((c) => c.id)).toEqual(inside.map((c) => c.id).reverse());
      for (const c of inside) await t.http.delete(`/v1/collections/${c.id}`).set(bearer(key)).expect(200);
    });

    describe('bad cursors → 400 invalid_cursor', () => {
      let cursor: string;
      beforeAll(async () => {
        cursor = (await page('/v1/collections', { page_size: 10 })).next_cursor!;
      });

      it('a tampered payload', async () => {
        const [body, signature] = cursor.split('.') as [string, string];
        const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
        const forged = `${Buffer.from(JSON.stringify({ ...payload, v: '2000-01-01T00:00:00.000Z' })).toString('base64url')}.${signature}`;
        const res = await t.http.get('/v1/collections').query({ start_cursor: forged }).set(bearer(reader));
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } });
      });

      it('a changed signature', async () => {
        const changed = cursor.slice(0, -2) + (cursor.endsWith('AA') ? 'BB' : 'AA');
        const res = await t.http.get('/v1/collections').query({ start_cursor: changed }).set(bearer(reader));
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } });
      });

      it('garbage', async () => {
        for (const bad of ['garbage', 'a.b', 'a.b.c', '.']) {
          const res = await t.http.get('/v1/collections').query({ start_cursor: bad }).set(bearer(reader));
          expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } });
        }
      });

      it('a cursor of the sections list', async () => {
        const sectionsCursor = (await page('/v1/sections', { page_size: 1 })).next_cursor!;
        const res = await t.http.get('/v1/collections').query({ start_cursor: sectionsCursor }).set(bearer(reader));
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } });
      });

      it('a collections cursor on the sections list', async () => {
        const res = await t.http.get('/v1/sections').query({ start_cursor: cursor }).set(bearer(reader));
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } });
      });
    });
  });

  describe('sections', () => {
    it('paginate by position, then ID, starting with the default section at 0', async () => {
      const general = (await page('/v1/sections', {})).results[0]!;
      expect(general).toMatchObject({ name: 'General', position: 0 });
      const positions = [7, 3, 3, 12, 1, 7, 3, 5, 0, 9];
      const made: Item[] = [];
      for (const [i, position] of positions.entries()) {
        made.push((await t.http.post('/v1/sections').set(bearer(key)).send({ name: `P${i}`, position }).expect(201)).body);
      }
      const pages = await walk('/v1/sections', { page_size: 3 });
      const all = pages.flatMap((p) => p.results);
      expect(pages.at(-1)).toMatchObject({ has_more: false, next_cursor: null });
      for (const p of pages.slice(0, -1)) expect(p.results).toHaveLength(3);
      const ids = all.map((s) => s.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const s of [general, ...made]) expect(ids).toContain(s.id);
      const expected = [...all].sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      expect(ids).toEqual(expected.map((s) => s.id));
      expect(all.map((s) => s.position)).toEqual([...all.map((s) => s.position)].sort((a, b) => a - b));
    });

    it('a section moved to another position shows up there; a cursor taken before keeps going from its position', async () => {
      const first = await page('/v1/sections', { page_size: 2 });
      const before = (await walk('/v1/sections', { page_size: 100 })).flatMap((p) => p.results);
      const last = before.at(-1)!;
      await t.http.patch(`/v1/sections/${last.id}`).set(bearer(key)).send({ position: 0 }).expect(200);
      const after = (await walk('/v1/sections', { page_size: 100 })).flatMap((p) => p.results);
      expect(after.findIndex((s) => s.id === last.id)).toBeLessThan(before.findIndex((s) => s.id === last.id));
      const rest = (await page('/v1/sections', { page_size: 100, start_cursor: first.next_cursor! })).results;
      // The continuation holds exactly what sorts after the cursor's position.
      const cut = first.results.at(-1)!;
      expect(rest.map((s) => s.id)).toEqual(
        after.filter((s) => s.position > cut.position || (s.position === cut.position && s.id > cut.id)).map((s) => s.id),
      );
    });

    it('page_size bounds apply to sections too; unknown query parameters are refused', async () => {
      for (const query of ['page_size=0', 'page_size=101', 'page_size=x', 'section_id=x', 'sort=name']) {
        const res = await t.http.get(`/v1/sections?${query}`).set(bearer(reader));
        expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      }
      expect((await page('/v1/sections', { page_size: 100 })).has_more).toBe(false);
      expect((await page('/v1/sections', { page_size: 1 })).results).toHaveLength(1);
    });
  });
});
