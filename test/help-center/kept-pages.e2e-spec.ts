import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { CompactHelpCenterChangesUseCase } from '#content';
import { PageCache } from '../../apps/api/src/help-center/page-cache.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';
import { defaultSectionId } from '../support/sections.js';

jest.setTimeout(120_000);

/**
 * Kept pages (apps/api/src/help-center/page-cache.ts) against the help center content version, with two API
 * processes on one database, as in a scale-out deployment: a page one process keeps is served while no change has
 * committed, and never once one has, whichever process made it; the version itself rises once per committed
 * transaction that changes public content, in commit order, never for a rolled-back one.
 */
describe('kept help center pages across two API processes', () => {
  let a: TestApp;
  let b: TestApp;
  let key: string;
  let db: pg.Client;
  let sectionId: string;
  let collectionId: string;

  const version = async (): Promise<bigint> =>
    BigInt(((await db.query<{ version: string }>('SELECT coalesce(sum(weight), 0)::text AS version FROM help_center_changes')).rows[0]!).version);
  const changeRows = async (): Promise<number> => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM help_center_changes')).rows[0]!.n;
  const title = (html: string): string | undefined => /<h1[^>]*>([^<]*)</.exec(html)?.[1];

  async function publish(app: TestApp, title: string, extra: Record<string, unknown> = {}): Promise<{ id: string; slug: string }> {
    const res = await app.http.post('/v1/articles').set(bearer(key)).send({ title, sectionId, collectionId, markdown: `About ${title}.`, publish: true, ...extra }).expect(201);
    return res.body as { id: string; slug: string };
  }

  beforeAll(async () => {
    a = await startTestApp({ env: NO_LIMITS });
    b = await startTestApp({ databaseUrl: a.databaseUrl!, env: NO_LIMITS });
    key = await a.key(null);
    db = new pg.Client({ connectionString: a.databaseUrl! });
    await db.connect();
    await a.http.patch('/v1/helpdesk').set(bearer(key)).send({ name: 'Kept Help', languages: ['en', 'fr'] }).expect(200);
    sectionId = await defaultSectionId(a, key);
    collectionId = ((await a.http.post('/v1/collections').set(bearer(key)).send({ title: 'Kept collection', sectionId }).expect(201)).body as { id: string }).id;
  });
  afterAll(async () => {
    await db?.end();
    await b?.close();
    await a?.close();
  });

  it('serves a kept page while the version stands, and renders afresh once any change commits', async () => {
    const article = await publish(a, 'Reset your password');
    const first = await b.http.get(`/articles/${article.slug}`).expect(200);
    expect(first.text).toContain('Kept Help');
    // A change that raises no version (triggers off for this session): the kept page stays as it was on B,
    // which is how we know it is kept; A, which never rendered it, reads the change.
    await db.query("SET session_replication_role = replica; UPDATE helpdesks SET name = 'Renamed quietly'; SET session_replication_role = origin");
    const kept = await b.http.get(`/articles/${article.slug}`).expect(200);
    expect(kept.text).toBe(first.text);
    expect(kept.headers['etag']).toBe(first.headers['etag']);
    expect((await a.http.get(`/articles/${article.slug}`).expect(200)).text).toContain('Renamed quietly');
    // Any change through the API (on A) raises the version: B's next request renders afresh.
    await publish(a, 'Unrelated article');
    expect((await b.http.get(`/articles/${article.slug}`).expect(200)).text).toContain('Renamed quietly');
    await a.http.patch('/v1/helpdesk').set(bearer(key)).send({ name: 'Kept Help' }).expect(200);
    expect((await b.http.get(`/articles/${article.slug}`).expect(200)).text).toContain('Kept Help');
  });

  it('an unpublish, a republish, a slug change and a translation made on one process are on the next request of the other', async () => {
    const article = await publish(a, 'Export your data');
    const path = `/articles/${article.slug}`;
    expect(title((await b.http.get(path).expect(200)).text)).toBe('Export your data');
    await b.http.get(`/collections/${(await a.http.get(`/v1/collections/${collectionId}`).set(bearer(key)).expect(200)).body.shortId}`).expect(200);

    await a.http.post(`/v1/articles/${article.id}/unpublish`).set(bearer(key)).expect(200);
    await b.http.get(path).expect(404);
    await a.http.post(`/v1/articles/${article.id}/publish`).set(bearer(key)).expect(200);
    expect(title((await b.http.get(path).expect(200)).text)).toBe('Export your data');

    await a.http.patch(`/v1/articles/${article.id}`).set(bearer(key)).send({ slug: 'export-everything', publish: true }).expect(200);
    const moved = await b.http.get(path).expect(301);
    expect(moved.headers['location']).toBe('/articles/export-everything');

    await b.http.get('/fr/articles/export-everything').expect(200);
    await a.http.put(`/v1/articles/${article.id}/translations/fr`).set(bearer(key)).send({ title: 'Exporter vos données', markdown: 'Tout exporter.' }).expect(201);
    await a.http.post(`/v1/articles/${article.id}/translations/fr/publish`).set(bearer(key)).expect(200);
    expect(title((await b.http.get('/fr/articles/export-everything').expect(200)).text)).toBe('Exporter vos données');

    await a.http.delete(`/v1/articles/${article.id}`).set(bearer(key)).expect(200);
    await b.http.get('/articles/export-everything').expect(404);
    await b.http.get('/fr/articles/export-everything').expect(404);
  });

  it('under 16 concurrent readers on B while A unpublishes and republishes, every answer is its own page or, once unpublished, a 404', async () => {
    const articles = await Promise.all(['Alpha topic', 'Bravo topic', 'Charlie topic', 'Delta topic'].map((t) => publish(a, t)));
    const toggled = articles[0]!;
    let wrong = 0;
    let stop = false;
    let published = true;
    const readers = Array.from({ length: 16 }, async (_, reader) => {
      let n = reader;
      while (!stop) {
        const article = articles[n++ % articles.length]!;
        const expectedTitle = ['Alpha topic', 'Bravo topic', 'Charlie topic', 'Delta topic'][articles.indexOf(article)];
        const wasPublished = published;
        const res = await b.http.get(`/articles/${article.slug}`);
        const isPublished = published;
        if (res.status === 200) {
          if (title(res.text) !== expectedTitle) wrong += 1;
          // Acknowledged unpublished before the request and still so after: a 200 would be a stale page.
          if (article === toggled && !wasPublished && !isPublished) wrong += 1;
        } else if (res.status === 404) {
          if (article !== toggled || (wasPublished && isPublished)) wrong += 1;
        } else {
          wrong += 1;
        }
      }
    });
    for (let i = 0; i < 6; i += 1) {
      await a.http.post(`/v1/articles/${toggled.id}/unpublish`).set(bearer(key)).expect(200);
      published = false;
      await new Promise((resolve) => setTimeout(resolve, 100));
      await a.http.post(`/v1/articles/${toggled.id}/publish`).set(bearer(key)).expect(200);
      published = true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    stop = true;
    await Promise.all(readers);
    expect(wrong).toBe(0);
  });

  it('the version rises once per committed transaction that changes public content, in any number of rows, not for a rolled-back one, and not when the changes are folded', async () => {
    const before = await version();
    await db.query('BEGIN');
    await db.query('UPDATE collections SET title = title');
    await db.query('UPDATE sections SET name = name');
    await db.query('ROLLBACK');
    expect(await version()).toBe(before);

    await db.query('BEGIN');
    await db.query('UPDATE articles SET updated_at = updated_at');
    await db.query('UPDATE sections SET name = name');
    expect(await version()).toBe(before); // not before the commit
    await db.query('COMMIT');
    expect(await version()).toBe(before + 1n);

    // Eight writers at once, each in its own transaction, while the changes are folded: eight raises, none lost,
    // and the folding itself changes nothing any reader sees.
    const writers = await Promise.all(Array.from({ length: 8 }, async () => {
      const client = new pg.Client({ connectionString: a.databaseUrl! });
      await client.connect();
      return client;
    }));
    const compact = b.app.get(CompactHelpCenterChangesUseCase);
    try {
      await Promise.all([
        ...writers.map(async (client, i) => {
          await client.query('BEGIN');
          await client.query(`UPDATE helpdesks SET name = name || ''`);
          await client.query('SELECT pg_sleep(0.01 * $1)', [i % 3]);
          await client.query('COMMIT');
        }),
        compact.execute(),
        compact.execute(),
      ]);
    } finally {
      await Promise.all(writers.map((client) => client.end()));
    }
    expect(await version()).toBe(before + 9n);
    expect(await compact.execute()).toBeGreaterThan(0);
    expect(await changeRows()).toBe(1);
    expect(await version()).toBe(before + 9n);

    await db.query('TRUNCATE article_slug_history');
    expect(await version()).toBe(before + 10n);
    // Reads and writes to tables the pages are not made of leave it alone.
    await a.http.get('/v1/articles').set(bearer(key)).expect(200);
    await a.http.post('/v1/webhooks').set(bearer(key)).send({ url: 'https://hooks.example.com/x', events: ['*'] });
    expect(await version()).toBe(before + 10n);
  });

  it('made-up slugs and query strings add no kept pages; HELP_CENTER_PAGE_CACHE_MB=0 keeps none', async () => {
    const article = await publish(a, 'Bounded cache');
    const cache = b.app.get(PageCache);
    await b.http.get(`/articles/${article.slug}`).expect(200);
    const { pages } = cache.size;
    for (let i = 0; i < 20; i += 1) {
      await b.http.get(`/articles/${article.slug}?utm_source=${i}`).expect(200);
      await b.http.get(`/articles/made-up-${i}`).expect(404);
      await b.http.get(`/search?q=word${i}`).expect(200);
    }
    expect(cache.size.pages).toBe(pages);

    const none = await startTestApp({ databaseUrl: a.databaseUrl!, env: { ...NO_LIMITS, HELP_CENTER_PAGE_CACHE_MB: '0' } });
    try {
      const res = await none.http.get(`/articles/${article.slug}`).expect(200);
      expect(title(res.text)).toBe('Bounded cache');
      await none.http.get('/').expect(200);
      expect(none.app.get(PageCache).size).toEqual({ pages: 0, bytes: 0 });
    } finally {
      await none.close();
    }
  });
});
