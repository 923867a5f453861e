import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { bearer, startTestApp, type TestApp } from '../support/app.js';

jest.setTimeout(60_000);

describe('article translations, missing translations and search', () => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let writer: string;
  let sectionId: string;

  async function article(title: string, markdown: string, publish = true): Promise<string> {
    const res = await t.http.post('/v1/articles').set(bearer(admin)).send({ title, sectionId, markdown, publish }).expect(201);
    return res.body.id as string;
  }

  beforeAll(async () => {
    t = await startTestApp({ env: { HELPDESK_LANGUAGES: 'en,fr,de,xx', RATE_LIMIT_CREATE_ARTICLES_PER_HOUR: '100000' } });
    admin = await t.key(null);
    reader = await t.key(['content:read']);
    writer = await t.key(['content:write']);
    sectionId = (await t.http.get('/v1/sections').set(bearer(admin)).expect(200)).body.results[0].id;
  });
  afterAll(() => t.close());

  describe('PUT /v1/articles/{id}/translations/{locale}', () => {
    it('creates (201) then replaces (200) the draft of a translation', async () => {
      const id = await article('Billing basics', 'How **invoices** work.');
      const created = await t.http.put(`/v1/articles/${id}/translations/fr`).set(bearer(writer)).send({ title: 'Facturation', markdown: 'Les *factures*.' }).expect(201);
      expect(created.body).toMatchObject({ articleId: id, locale: 'fr', title: 'Facturation', status: 'draft', hasUnpublishedChanges: true, outdated: false, publishedAt: null });
      expect(created.body.id).toMatch(/^artr_[0-9A-HJKMNP-TV-Z]{26}$/);
      const replaced = await t.http.put(`/v1/articles/${id}/translations/fr`).set(bearer(writer)).send({ title: 'Facturation 2', markdown: 'Encore.' }).expect(200);
      expect(replaced.body).toMatchObject({ id: created.body.id, title: 'Facturation 2' });
    });

    it('refuses the default language, a disabled one and an unknown article, and content with markdown', async () => {
      const id = await article('Refusals', 'Body');
      expect((await t.http.put(`/v1/articles/${id}/translations/en`).set(bearer(admin)).send({ title: 'x' })).status).toBe(400);
      expect((await t.http.put(`/v1/articles/${id}/translations/es`).set(bearer(admin)).send({ title: 'x' })).status).toBe(400);
      expect((await t.http.put('/v1/articles/art_00000000000000000000000000/translations/fr').set(bearer(admin)).send({ title: 'x' })).status).toBe(404);
      const both = await t.http.put(`/v1/articles/${id}/translations/fr`).set(bearer(admin)).send({ title: 'x', markdown: 'a', content: { type: 'doc', content: [] } });
      expect(both.status).toBe(400);
      expect(both.body.code).toBe('invalid_request');
      expect((await t.http.get(`/v1/articles/${id}/translations`).set(bearer(admin)).expect(200)).body.results).toEqual([]);
    });

    it('needs content:write', async () => {
      const id = await article('Scoped', 'Body');
      const res = await t.http.put(`/v1/articles/${id}/translations/fr`).set(bearer(reader)).send({ title: 'x' });
      expect(res.status).toBe(403);
      expect(res.body.error).toContain('content:write');
    });
  });

  describe('publishing a translation and the outdated flag', () => {
    it('publishes the draft, and flags it outdated when the source article is published again', async () => {
      const id = await article('Outdated check', 'Version one');
      await t.http.put(`/v1/articles/${id}/translations/de`).set(bearer(admin)).send({ title: 'Veraltet', markdown: 'Eins' }).expect(201);
      const published = await t.http.post(`/v1/articles/${id}/translations/de/publish`).set(bearer(admin)).expect(200);
      expect(published.body).toMatchObject({ status: 'published', hasUnpublishedChanges: false, outdated: false });
      expect(published.body.publishedAt).toEqual(expect.any(String));

      await t.http.patch(`/v1/articles/${id}`).set(bearer(admin)).send({ markdown: 'Version two', publish: true }).expect(200);
      const list = await t.http.get(`/v1/articles/${id}/translations`).set(bearer(admin)).expect(200);
      expect(list.body.results).toEqual([expect.objectContaining({ locale: 'de', outdated: true })]);

      await t.http.put(`/v1/articles/${id}/translations/de`).set(bearer(admin)).send({ title: 'Aktuell', markdown: 'Zwei' }).expect(200);
      const again = await t.http.get(`/v1/articles/${id}/translations`).set(bearer(admin)).expect(200);
      expect(again.body.results).toEqual([expect.objectContaining({ locale: 'de', outdated: false, hasUnpublishedChanges: true })]);
    });

    it('publishing needs content:publish, and a translation that does not exist is 404', async () => {
      const id = await article('Publish scope', 'Body');
      await t.http.put(`/v1/articles/${id}/translations/fr`).set(bearer(admin)).send({ title: 'Portée' }).expect(201);
      expect((await t.http.post(`/v1/articles/${id}/translations/fr/publish`).set(bearer(writer))).status).toBe(403);
      expect((await t.http.post(`/v1/articles/${id}/translations/de/publish`).set(bearer(admin))).status).toBe(404);
    });

    it('readers see only published translations, writers every one', async () => {
      const id = await article('Visibility', 'Body');
      await t.http.put(`/v1/articles/${id}/translations/fr`).set(bearer(admin)).send({ title: 'Brouillon' }).expect(201);
      await t.http.put(`/v1/articles/${id}/translations/de`).set(bearer(admin)).send({ title: 'Veröffentlicht' }).expect(201);
      await t.http.post(`/v1/articles/${id}/translations/de/publish`).set(bearer(admin)).expect(200);
      const forReader = await t.http.get(`/v1/articles/${id}/translations`).set(bearer(reader)).expect(200);
      expect(forReader.body.results.map((r: { locale: string }) => r.locale)).toEqual(['de']);
      const forWriter = await t.http.get(`/v1/articles/${id}/translations`).set(bearer(writer)).expect(200);
      expect(forWriter.body.results.map((r: { locale: string }) => r.locale)).toEqual(['de', 'fr']);
      const draft = await article('Draft only', 'Body', false);
      expect((await t.http.get(`/v1/articles/${draft}/translations`).set(bearer(reader))).status).toBe(404);
    });
  });

  describe('GET /v1/articles/translations/missing', () => {
    it('maps each locale to the published articles without a translation row (default: every enabled language but the default)', async () => {
      const translated = await article('Translated everywhere', 'Body');
      for (const locale of ['fr', 'de', 'xx']) {
        await t.http.put(`/v1/articles/${translated}/translations/${locale}`).set(bearer(admin)).send({ title: locale }).expect(201);
      }
      const onlyFr = await article('Only French', 'Body');
      await t.http.put(`/v1/articles/${onlyFr}/translations/fr`).set(bearer(admin)).send({ title: 'Seulement' }).expect(201);
      const draft = await article('Unpublished', 'Body', false);

      const all = await t.http.get('/v1/articles/translations/missing').set(bearer(reader)).expect(200);
      expect(Object.keys(all.body.missing).sort()).toEqual(['de', 'fr', 'xx']);
      expect(all.body.missing.fr).not.toContain(translated);
      expect(all.body.missing.fr).not.toContain(onlyFr);
      expect(all.body.missing.de).toContain(onlyFr);
      expect(all.body.missing.de).not.toContain(translated);
      for (const ids of Object.values(all.body.missing as Record<string, string[]>)) expect(ids).not.toContain(draft);

      const some = await t.http.get('/v1/articles/translations/missing?locales=de').set(bearer(reader)).expect(200);
      expect(Object.keys(some.body.missing)).toEqual(['de']);
    });

    it('refuses a locale that is not a translation language', async () => {
      expect((await t.http.get('/v1/articles/translations/missing?locales=es').set(bearer(reader))).status).toBe(400);
      expect((await t.http.get('/v1/articles/translations/missing?locales=en').set(bearer(reader))).status).toBe(400);
      expect((await t.http.get('/v1/articles/translations/missing?locales=f%20r').set(bearer(reader))).status).toBe(400);
    });
  });

  describe('GET /v1/articles/search', () => {
    let refunds: string;
    let trashed: string;

    beforeAll(async () => {
      refunds = await article('Refunds and cancellations', 'You can ask for a **refund** within 30 days of cancelling your subscription.');
      await article('Invoices', 'Download every invoice from the billing page.');
      await article('Unpublished refund policy', 'Refunds drafts', false);
      trashed = await article('Trashed refund guide', 'Refunds trashed');
      await t.http.delete(`/v1/articles/${trashed}`).set(bearer(admin)).expect(200);
      await t.http.put(`/v1/articles/${refunds}/translations/fr`).set(bearer(admin)).send({ title: 'Remboursements', markdown: 'Demandez un remboursement sous trente jours.' }).expect(201);
      await t.http.post(`/v1/articles/${refunds}/translations/fr/publish`).set(bearer(admin)).expect(200);
    });

    it('finds published articles with stemming, ranked, with an escaped snippet that marks the terms', async () => {
      const res = await t.http.get('/v1/articles/search?query=refunds').set(bearer(reader)).expect(200);
      const ids = res.body.results.map((r: { id: string }) => r.id);
      expect(ids).toContain(refunds);
      expect(ids).not.toContain(trashed);
      const hit = res.body.results.find((r: { id: string }) => r.id === refunds);
      expect(hit).toMatchObject({ title: 'Refunds and cancellations', locale: 'en', url: expect.stringMatching(/\/articles\/refunds-and-cancellations$/) });
      expect(hit.snippet).toContain('<mark>refund</mark>');
      expect(hit.snippet).not.toContain('**');
      expect(res.body.results.every((r: { title: string }) => !r.title.startsWith('Unpublished'))).toBe(true);
    });

    it('searches a locale in its own language configuration', async () => {
      const res = await t.http.get('/v1/articles/search?query=remboursement&locale=fr').set(bearer(reader)).expect(200);
      expect(res.body.results).toEqual([expect.objectContaining({ id: refunds, locale: 'fr', title: 'Remboursements' })]);
      expect((await t.http.get('/v1/articles/search?query=refund&locale=fr').set(bearer(reader)).expect(200)).body.results).toEqual([]);
    });

    it('paginates with a cursor tied to the query', async () => {
      for (let i = 0; i < 5; i++) await article(`Zorblax guide ${i}`, `Zorblax words ${'zorblax '.repeat(i)}`);
      const first = await t.http.get('/v1/articles/search?query=zorblax&page_size=2').set(bearer(reader)).expect(200);
      expect(first.body.results).toHaveLength(2);
      expect(first.body.has_more).toBe(true);
      const seen = new Set<string>(first.body.results.map((r: { id: string }) => r.id));
      let cursor = first.body.next_cursor as string | null;
      while (cursor) {
        const page = await t.http.get(`/v1/articles/search?query=zorblax&page_size=2&start_cursor=${encodeURIComponent(cursor)}`).set(bearer(reader)).expect(200);
        for (const r of page.body.results) {
          expect(seen.has(r.id)).toBe(false);
          seen.add(r.id);
        }
        cursor = page.body.next_cursor;
      }
      expect(seen.size).toBe(5);
      const foreign = await t.http.get(`/v1/articles/search?query=other&start_cursor=${encodeURIComponent(first.body.next_cursor)}`).set(bearer(reader));
      expect(foreign.status).toBe(400);
      expect(foreign.body.code).toBe('invalid_cursor');
    });

    it('refuses an empty or missing query, and accepts websearch syntax', async () => {
      expect((await t.http.get('/v1/articles/search').set(bearer(reader))).status).toBe(400);
      expect((await t.http.get('/v1/articles/search?query=').set(bearer(reader))).status).toBe(400);
      const res = await t.http.get('/v1/articles/search?query=%22billing%20page%22%20-refund').set(bearer(reader)).expect(200);
      expect(res.body.results.map((r: { title: string }) => r.title)).toEqual(['Invoices']);
    });
  });
});
