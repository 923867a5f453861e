import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import type { Response } from 'supertest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';
import { clockPast } from '../support/clock.js';
import { EVENT_ID, ISO_MS, UNKNOWN_ARTICLE, UNKNOWN_COLLECTION, UNKNOWN_SECTION } from '../support/formats.js';
import { outcome } from '../support/outcome.js';
import { defaultSectionId } from '../support/sections.js';
import { uniqueTitle } from '../support/unique.js';

jest.setTimeout(60_000);

/** Refused by the address policy (loopback) before any connection: the write fails with 502 image_upload_failed. */
const REFUSED_IMAGE = 'http://127.0.0.1:1/x.png';

type Json = Record<string, unknown>;

interface OutboxEvent {
  id: string;
  type: string;
  data: Json;
  occurred_at: Date;
  relayed_at: Date | null;
}

describe('content events (transactional outbox)', () => {
  let t: TestApp;
  let db: pg.Client;
  /** Every scope. */
  let admin: string;
  /** content:write only. */
  let writer: string;
  let general: string;

  /**
   * Runs `action` and returns the events it recorded, in the order recorded (event IDs are monotonic ULIDs minted
   * in this process). Checks the row itself: ID, type, occurred_at within the action.
   */
  async function recorded(action: () => Promise<unknown>): Promise<OutboxEvent[]> {
    const [{ mark }] = (await db.query<{ mark: string }>("SELECT coalesce(max(id), '') AS mark FROM outbox_events")).rows;
    const before = Date.now();
    await action();
    const after = Date.now();
    const events = (await db.query<OutboxEvent>('SELECT id, type, data, occurred_at, relayed_at FROM outbox_events WHERE id > $1 ORDER BY id', [mark])).rows;
    for (const event of events) {
      expect(event.id).toMatch(EVENT_ID);
      expect(event.occurred_at).toBeInstanceOf(Date);
      expect(event.occurred_at.getTime()).toBeGreaterThanOrEqual(before);
      expect(event.occurred_at.getTime()).toBeLessThanOrEqual(after);
      // relayed_at is the relay's business (it may already have picked the event up): not asserted.
    }
    return events;
  }

  function types(events: OutboxEvent[]): string[] {
    return events.map((e) => e.type);
  }

  /** Sends a request inside `recorded`, expecting `status`; returns the response and the events. */
  async function write(request: () => PromiseLike<Response>, status: number): Promise<{ res: Response; events: OutboxEvent[] }> {
    let res: Response | undefined;
    const events = await recorded(async () => {
      res = await request();
    });
    expect(outcome(res!)).toMatchObject({ status });
    return { res: res!, events };
  }

  /** Asserts that the request fails with `status` and records nothing. */
  async function failsSilently(request: () => PromiseLike<Response>, status: number): Promise<Response> {
    const { res, events } = await write(request, status);
    expect(types(events)).toEqual([]);
    return res;
  }

  async function getArticle(id: string): Promise<Json> {
    return (await t.http.get(`/v1/articles/${id}`).query({ format: 'html' }).set(bearer(admin)).expect(200)).body;
  }

  async function getCollection(id: string): Promise<Json> {
    return (await t.http.get(`/v1/collections/${id}`).set(bearer(admin)).expect(200)).body;
  }

  async function getSection(id: string): Promise<Json> {
    return (await t.http.get(`/v1/sections/${id}`).set(bearer(admin)).expect(200)).body;
  }

  async function createArticle(body: Json = {}): Promise<Json> {
    const res = await t.http.post('/v1/articles').set(bearer(admin)).send({ title: uniqueTitle('Article'), sectionId: general, markdown: 'Body', ...body });
    expect(outcome(res)).toMatchObject({ status: 201 });
    return res.body;
  }

  async function publishedArticle(body: Json = {}): Promise<Json> {
    return createArticle({ ...body, publish: true });
  }

  async function createSection(name: string, extra: Json = {}): Promise<Json> {
    return (await t.http.post('/v1/sections').set(bearer(admin)).send({ name, ...extra }).expect(201)).body;
  }

  async function createCollection(body: Json): Promise<Json> {
    return (await t.http.post('/v1/collections').set(bearer(admin)).send(body).expect(201)).body;
  }

  beforeAll(async () => {
    t = await startTestApp({ env: { ...NO_LIMITS, HELPDESK_LANGUAGES: 'en,fr' } });
    db = new pg.Client({ connectionString: t.databaseUrl! });
    await db.connect();
    admin = await t.key();
    writer = await t.key(['content:write']);
    general = await defaultSectionId(t, admin);
  });
  afterAll(async () => {
    await db?.end();
    await t?.close();
  });

  describe('articles', () => {
    it('POST → article.created with the article as GET shows it (an open draft)', async () => {
      const { res, events } = await write(
        () => t.http.post('/v1/articles').set(bearer(admin)).send({ title: uniqueTitle('Created'), sectionId: general, markdown: 'Some **body**', keywords: 'k' }),
        201,
      );
      expect(types(events)).toEqual(['article.created']);
      const view = await getArticle(res.body.id);
      expect(view).toMatchObject({ status: 'draft', contentHtml: '<p>Some <strong>body</strong></p>', keywords: 'k' });
      expect(events[0]!.data).toEqual(view);
      // The same object as the write's answer, less draft_id.
      const { draft_id: _draft, ...answer } = res.body;
      expect(events[0]!.data).toEqual(answer);
    });

    it('POST with publish: true (legacy) → article.created then article.published, both the published article', async () => {
      const { res, events } = await write(
        () => t.http.post('/v1/articles').set(bearer(admin)).send({ title: uniqueTitle('Published at once'), sectionId: general, markdown: 'Live' }).send({ publish: true }),
        201,
      );
      expect(types(events)).toEqual(['article.created', 'article.published']);
      const view = await getArticle(res.body.id);
      expect(view).toMatchObject({ status: 'published', contentHtml: '<p>Live</p>', url: expect.any(String), publishedAt: expect.stringMatching(ISO_MS) });
      expect(events.map((e) => e.data)).toEqual([view, view]);
    });

    it('PATCH of the draft (title and body) → article.updated with the article after the write', async () => {
      const created = await createArticle();
      await clockPast(created.updatedAt as string);
      const title = uniqueTitle('Renamed');
      const { events } = await write(() => t.http.patch(`/v1/articles/${created.id}`).set(bearer(admin)).send({ title, markdown: 'New body' }), 200);
      expect(types(events)).toEqual(['article.updated']);
      const view = await getArticle(created.id as string);
      expect(view).toMatchObject({ id: created.id, status: 'draft', title, contentHtml: '<p>New body</p>' });
      expect(view.updatedAt).not.toBe(created.updatedAt);
      expect(events[0]!.data).toEqual(view);
    });

    it('PATCH of the draft of a published article → article.updated with what GET shows (the live content)', async () => {
      const live = await publishedArticle({ markdown: 'Live body' });
      const { events } = await write(() => t.http.patch(`/v1/articles/${live.id}`).set(bearer(admin)).send({ markdown: 'Draft body' }), 200);
      expect(types(events)).toEqual(['article.updated']);
      const view = await getArticle(live.id as string);
      expect(view).toMatchObject({ status: 'published', title: live.title, contentHtml: '<p>Live body</p>' });
      expect(events[0]!.data).toEqual(view);
    });

    it('PATCH of a slug or an SEO field alone → article.updated', async () => {
      const created = await createArticle();
      const custom = `custom-${Date.now()}`;
      const slug = await write(() => t.http.patch(`/v1/articles/${created.id}`).set(bearer(admin)).send({ slug: custom }), 200);
      expect(types(slug.events)).toEqual(['article.updated']);
      expect(slug.events[0]!.data).toEqual(await getArticle(created.id as string));
      expect(slug.events[0]!.data.slug).toBe(custom);

      for (const seo of [{ keywords: 'a, b' }, { metaDescription: 'Meta' }, { ogImage: 'https://img.test/og.png' }, { keywords: null }]) {
        const { events } = await write(() => t.http.patch(`/v1/articles/${created.id}`).set(bearer(admin)).send(seo), 200);
        expect({ seo, types: types(events) }).toEqual({ seo, types: ['article.updated'] });
        const view = await getArticle(created.id as string);
        expect(view).toMatchObject(seo);
        expect(events[0]!.data).toEqual(view);
      }
    });

    it('PATCH that changes nothing (empty, same title, same slug, same SEO values) records nothing', async () => {
      const created = await createArticle({ keywords: 'same', slug: `same-${Date.now()}` });
      for (const body of [{}, { title: created.title }, { slug: created.slug }, { keywords: 'same' }, { metaDescription: null }]) {
        const { events } = await write(() => t.http.patch(`/v1/articles/${created.id}`).set(bearer(admin)).send(body), 200);
        expect({ body, types: types(events) }).toEqual({ body, types: [] });
      }
    });

    it('PATCH with publish: true alone → article.published only (once)', async () => {
      const created = await createArticle();
      const { res, events } = await write(() => t.http.patch(`/v1/articles/${created.id}`).set(bearer(admin)).send({ publish: true }), 200);
      expect(types(events)).toEqual(['article.published']);
      const view = await getArticle(created.id as string);
      expect(view.status).toBe('published');
      expect(events[0]!.data).toEqual(view);
      expect(res.body.draft_id).toBeNull();
    });

    it('PATCH of the draft with publish: true → article.updated (the draft written, not yet live) then one article.published', async () => {
      const created = await createArticle({ markdown: 'First' });
      const title = uniqueTitle('Published by PATCH');
      const { events } = await write(() => t.http.patch(`/v1/articles/${created.id}`).set(bearer(admin)).send({ title, markdown: 'Second', publish: true }), 200);
      expect(types(events)).toEqual(['article.updated', 'article.published']);
      const view = await getArticle(created.id as string);
      expect(view).toMatchObject({ status: 'published', title, contentHtml: '<p>Second</p>' });
      expect(events[1]!.data).toEqual(view);
      // The update is recorded as written, before the publication in the same transaction.
      expect(events[0]!.data).toEqual({ ...view, status: 'draft', url: null, publishedAt: null, updatedAt: expect.stringMatching(ISO_MS) });
      expect(Date.parse(events[0]!.data.updatedAt as string)).toBeLessThanOrEqual(Date.parse(view.updatedAt as string));
    });

    it('PATCH of a published article with publish: true → article.updated with the old live content, then article.published with the new', async () => {
      const live = await publishedArticle({ markdown: 'Old' });
      const { events } = await write(() => t.http.patch(`/v1/articles/${live.id}`).set(bearer(admin)).send({ markdown: 'New', publish: true }), 200);
      expect(types(events)).toEqual(['article.updated', 'article.published']);
      expect(events[0]!.data).toMatchObject({ status: 'published', contentHtml: '<p>Old</p>' });
      const view = await getArticle(live.id as string);
      expect(view.contentHtml).toBe('<p>New</p>');
      expect(events[1]!.data).toEqual(view);
    });

    it('PATCH with publish: true and nothing new to publish records nothing', async () => {
      const live = await publishedArticle();
      const { events } = await write(() => t.http.patch(`/v1/articles/${live.id}`).set(bearer(admin)).send({ publish: true }), 200);
      expect(types(events)).toEqual([]);
    });

    it('POST publish → article.published; publishing again with nothing new records nothing', async () => {
      const created = await createArticle({ markdown: 'To publish' });
      const { res, events } = await write(() => t.http.post(`/v1/articles/${created.id}/publish`).set(bearer(admin)), 200);
      expect(types(events)).toEqual(['article.published']);
      const view = await getArticle(created.id as string);
      expect(view).toMatchObject({ status: 'published', contentHtml: '<p>To publish</p>' });
      expect(events[0]!.data).toEqual(view);
      expect(events[0]!.data).toEqual(res.body);

      const again = await write(() => t.http.post(`/v1/articles/${created.id}/publish`).set(bearer(admin)), 200);
      expect(types(again.events)).toEqual([]);
    });

    it('POST publish of a published article with an open draft → article.published with the new content', async () => {
      const live = await publishedArticle({ markdown: 'v1' });
      await t.http.patch(`/v1/articles/${live.id}`).set(bearer(admin)).send({ markdown: 'v2' }).expect(200);
      const { events } = await write(() => t.http.post(`/v1/articles/${live.id}/publish`).set(bearer(admin)), 200);
      expect(types(events)).toEqual(['article.published']);
      expect(events[0]!.data).toEqual(await getArticle(live.id as string));
      expect(events[0]!.data.contentHtml).toBe('<p>v2</p>');
    });

    it('POST unpublish → article.unpublished', async () => {
      const live = await publishedArticle();
      const { res, events } = await write(() => t.http.post(`/v1/articles/${live.id}/unpublish`).set(bearer(admin)), 200);
      expect(types(events)).toEqual(['article.unpublished']);
      const view = await getArticle(live.id as string);
      expect(view).toMatchObject({ status: 'draft' });
      expect(events[0]!.data).toEqual(view);
      expect(events[0]!.data).toEqual(res.body);
    });

    it('DELETE draft (discard) → article.updated with the live content shown again', async () => {
      const live = await publishedArticle({ markdown: 'Kept' });
      await t.http.patch(`/v1/articles/${live.id}`).set(bearer(admin)).send({ markdown: 'Discarded' }).expect(200);
      const { res, events } = await write(() => t.http.delete(`/v1/articles/${live.id}/draft`).set(bearer(admin)), 200);
      expect(types(events)).toEqual(['article.updated']);
      const view = await getArticle(live.id as string);
      expect(view.contentHtml).toBe('<p>Kept</p>');
      expect(events[0]!.data).toEqual(view);
      expect(events[0]!.data).toEqual(res.body);
    });

    it('DELETE (trash) → article.trashed; restore → article.restored', async () => {
      const live = await publishedArticle();
      const trashed = await write(() => t.http.delete(`/v1/articles/${live.id}`).set(bearer(admin)), 200);
      expect(types(trashed.events)).toEqual(['article.trashed']);
      const trashedView = await getArticle(live.id as string);
      expect(trashedView.status).toBe('trashed');
      expect(trashed.events[0]!.data).toEqual(trashedView);

      const restored = await write(() => t.http.post(`/v1/articles/${live.id}/restore`).set(bearer(admin)), 200);
      expect(types(restored.events)).toEqual(['article.restored']);
      const restoredView = await getArticle(live.id as string);
      expect(restoredView.status).toBe('published');
      expect(restored.events[0]!.data).toEqual(restoredView);
    });

    it('POST move → article.moved; a move to where it already is records nothing', async () => {
      const other = (await createSection('Move target')).id as string;
      const collection = (await createCollection({ title: 'Article home', sectionId: other })).id as string;
      const created = await createArticle();
      const { res, events } = await write(() => t.http.post(`/v1/articles/${created.id}/move`).set(bearer(admin)).send({ section_id: other, collection_id: collection }), 200);
      expect(types(events)).toEqual(['article.moved']);
      const view = await getArticle(created.id as string);
      expect(view).toMatchObject({ sectionId: other, collectionId: collection });
      expect(events[0]!.data).toEqual(view);
      expect(events[0]!.data).toEqual(res.body);

      const same = await write(() => t.http.post(`/v1/articles/${created.id}/move`).set(bearer(admin)).send({ section_id: other, collection_id: collection }), 200);
      expect(types(same.events)).toEqual([]);
    });

    it('translation PUT and translation publish → article.updated with the article (in its default language)', async () => {
      const live = await publishedArticle({ markdown: 'English' });
      const put = await write(() => t.http.put(`/v1/articles/${live.id}/translations/fr`).set(bearer(admin)).send({ title: 'Français', markdown: 'Texte' }), 201);
      expect(types(put.events)).toEqual(['article.updated']);
      const view = await getArticle(live.id as string);
      expect(view).toMatchObject({ title: live.title, contentHtml: '<p>English</p>' });
      expect(put.events[0]!.data).toEqual(view);

      const replaced = await write(() => t.http.put(`/v1/articles/${live.id}/translations/fr`).set(bearer(admin)).send({ title: 'Français 2', markdown: 'Texte 2' }), 200);
      expect(types(replaced.events)).toEqual(['article.updated']);
      expect(replaced.events[0]!.data).toEqual(await getArticle(live.id as string));

      const published = await write(() => t.http.post(`/v1/articles/${live.id}/translations/fr/publish`).set(bearer(admin)), 200);
      expect(types(published.events)).toEqual(['article.updated']);
      expect(published.events[0]!.data).toEqual(await getArticle(live.id as string));
    });

    describe('failed writes record nothing', () => {
      it('400: create without a title, with an unknown section; PATCH with a bad field; move to an unknown section', async () => {
        const created = await createArticle();
        await failsSilently(() => t.http.post('/v1/articles').set(bearer(admin)).send({ sectionId: general, markdown: 'x' }), 400);
        await failsSilently(() => t.http.post('/v1/articles').set(bearer(admin)).send({ title: uniqueTitle('Nowhere'), sectionId: UNKNOWN_SECTION }), 400);
        await failsSilently(() => t.http.patch(`/v1/articles/${created.id}`).set(bearer(admin)).send({ title: '' }), 400);
        await failsSilently(() => t.http.post(`/v1/articles/${created.id}/move`).set(bearer(admin)).send({ section_id: UNKNOWN_SECTION }), 400);
        await failsSilently(() => t.http.post(`/v1/articles/${created.id}/move`).set(bearer(admin)).send({ collection_id: UNKNOWN_COLLECTION }), 400);
        await failsSilently(() => t.http.put(`/v1/articles/${created.id}/translations/de`).set(bearer(admin)).send({ title: 'Nicht aktiviert' }), 400);
      });

      it('404: every write on an unknown article; publishing a translation that does not exist', async () => {
        const created = await createArticle();
        await failsSilently(() => t.http.patch(`/v1/articles/${UNKNOWN_ARTICLE}`).set(bearer(admin)).send({ title: 'x' }), 404);
        await failsSilently(() => t.http.post(`/v1/articles/${UNKNOWN_ARTICLE}/publish`).set(bearer(admin)), 404);
        await failsSilently(() => t.http.post(`/v1/articles/${UNKNOWN_ARTICLE}/unpublish`).set(bearer(admin)), 404);
        await failsSilently(() => t.http.delete(`/v1/articles/${UNKNOWN_ARTICLE}`).set(bearer(admin)), 404);
        await failsSilently(() => t.http.post(`/v1/articles/${UNKNOWN_ARTICLE}/restore`).set(bearer(admin)), 404);
        await failsSilently(() => t.http.delete(`/v1/articles/${UNKNOWN_ARTICLE}/draft`).set(bearer(admin)), 404);
        await failsSilently(() => t.http.post(`/v1/articles/${UNKNOWN_ARTICLE}/move`).set(bearer(admin)).send({ section_id: general }), 404);
        await failsSilently(() => t.http.put(`/v1/articles/${UNKNOWN_ARTICLE}/translations/fr`).set(bearer(admin)).send({ title: 'x' }), 404);
        await failsSilently(() => t.http.post(`/v1/articles/${created.id}/translations/fr/publish`).set(bearer(admin)), 404);
      });

      it('409: a taken slug (after the draft was written in the same transaction), unpublish of a draft, trash twice, restore of a live one, discard without a draft, edits of a trashed one', async () => {
        const taken = await createArticle({ slug: `taken-${Date.now()}` });
        const created = await createArticle();
        const res = await failsSilently(
          () => t.http.patch(`/v1/articles/${created.id}`).set(bearer(admin)).send({ title: uniqueTitle('Rolled back'), slug: taken.slug }),
          409,
        );
        expect(res.body.code).toBe('slug_taken');
        expect(await getArticle(created.id as string)).toEqual((({ draft_id: _d, ...rest }) => rest)(created));

        await failsSilently(() => t.http.post(`/v1/articles/${created.id}/unpublish`).set(bearer(admin)), 409);
        await failsSilently(() => t.http.post(`/v1/articles/${created.id}/restore`).set(bearer(admin)), 409);
        await failsSilently(() => t.http.delete(`/v1/articles/${created.id}/draft`).set(bearer(admin)), 409);
        const live = await publishedArticle();
        await failsSilently(() => t.http.delete(`/v1/articles/${live.id}/draft`).set(bearer(admin)), 409);
        await t.http.delete(`/v1/articles/${live.id}`).set(bearer(admin)).expect(200);
        await failsSilently(() => t.http.delete(`/v1/articles/${live.id}`).set(bearer(admin)), 409);
        await failsSilently(() => t.http.patch(`/v1/articles/${live.id}`).set(bearer(admin)).send({ title: 'x' }), 409);
        await failsSilently(() => t.http.post(`/v1/articles/${live.id}/publish`).set(bearer(admin)), 409);
        await failsSilently(() => t.http.post(`/v1/articles/${live.id}/move`).set(bearer(admin)).send({ section_id: general }), 409);
        await failsSilently(() => t.http.put(`/v1/articles/${live.id}/translations/fr`).set(bearer(admin)).send({ title: 'x' }), 409);
        // 403: restoring a published article needs content:publish.
        await failsSilently(() => t.http.post(`/v1/articles/${live.id}/restore`).set(bearer(writer)), 403);
      });

      it('412: PATCH with a stale If-Match', async () => {
        const created = await createArticle();
        const etag = (await t.http.get(`/v1/articles/${created.id}`).set(bearer(admin)).expect(200)).headers['etag'] as string;
        await t.http.patch(`/v1/articles/${created.id}`).set(bearer(admin)).set('If-Match', etag).send({ keywords: 'moved on' }).expect(200);
        const res = await failsSilently(() => t.http.patch(`/v1/articles/${created.id}`).set(bearer(admin)).set('If-Match', etag).send({ markdown: 'late', publish: true }), 412);
        expect(res.body.code).toBe('precondition_failed');
      });

      it('502: an image that cannot be uploaded (a refused remote image) on create, PATCH and translation PUT', async () => {
        const created = await createArticle();
        const markdown = `![x](${REFUSED_IMAGE})`;
        for (const request of [
          () => t.http.post('/v1/articles').set(bearer(admin)).send({ title: uniqueTitle('Image'), sectionId: general, markdown, publish: true }),
          () => t.http.patch(`/v1/articles/${created.id}`).set(bearer(admin)).send({ markdown, publish: true }),
          () => t.http.put(`/v1/articles/${created.id}/translations/fr`).set(bearer(admin)).send({ title: 'Image', markdown }),
        ]) {
          const res = await failsSilently(request, 502);
          expect(res.body.code).toBe('image_upload_failed');
        }
      });
    });
  });

  describe('collections', () => {
    it('POST → collection.created with the collection as GET shows it', async () => {
      const section = (await createSection('Collections')).id as string;
      const { res, events } = await write(() => t.http.post('/v1/collections').set(bearer(admin)).send({ title: 'Billing', subtitle: 'Money', sectionId: section }), 201);
      expect(types(events)).toEqual(['collection.created']);
      expect(events[0]!.data).toEqual(await getCollection(res.body.id));
      expect(events[0]!.data).toEqual(res.body);
    });

    it('PATCH → collection.updated; a PATCH that changes nothing records nothing', async () => {
      const collection = await createCollection({ title: 'To rename', shortId: `rename-${Date.now()}` });
      await clockPast(collection.updatedAt as string);
      const { res, events } = await write(() => t.http.patch(`/v1/collections/${collection.id}`).set(bearer(admin)).send({ title: 'Renamed', subtitle: 'Now with one' }), 200);
      expect(types(events)).toEqual(['collection.updated']);
      const view = await getCollection(collection.id as string);
      expect(view).toMatchObject({ title: 'Renamed', subtitle: 'Now with one' });
      expect(view.updatedAt).not.toBe(collection.updatedAt);
      expect(events[0]!.data).toEqual(view);
      expect(events[0]!.data).toEqual(res.body);

      for (const body of [{}, { title: 'Renamed' }, { subtitle: 'Now with one', shortId: collection.shortId }]) {
        const same = await write(() => t.http.patch(`/v1/collections/${collection.id}`).set(bearer(admin)).send(body), 200);
        expect({ body, types: types(same.events) }).toEqual({ body, types: [] });
      }
    });

    it('POST move → collection.updated; a move to where it already is records nothing', async () => {
      const section = (await createSection('Move collections here')).id as string;
      const parent = await createCollection({ title: 'Parent', sectionId: section });
      const child = await createCollection({ title: 'Child' });
      const { res, events } = await write(() => t.http.post(`/v1/collections/${child.id}/move`).set(bearer(admin)).send({ parent_collection_id: parent.id }), 200);
      expect(types(events)).toEqual(['collection.updated']);
      const view = await getCollection(child.id as string);
      expect(view).toMatchObject({ parentCollectionId: parent.id, sectionId: section });
      expect(events[0]!.data).toEqual(view);
      expect(events[0]!.data).toEqual(res.body);

      const same = await write(() => t.http.post(`/v1/collections/${child.id}/move`).set(bearer(admin)).send({ parent_collection_id: parent.id }), 200);
      expect(types(same.events)).toEqual([]);
    });

    it('moving a collection into another section records collection.updated for it and each nested collection carried along', async () => {
      const from = (await createSection('Tree from')).id as string;
      const to = (await createSection('Tree to')).id as string;
      const root = await createCollection({ title: 'Tree root', sectionId: from });
      const child = await createCollection({ title: 'Tree child', parentCollectionId: root.id });
      const grandchild = await createCollection({ title: 'Tree grandchild', parentCollectionId: child.id });
      const { events } = await write(() => t.http.post(`/v1/collections/${root.id}/move`).set(bearer(admin)).send({ section_id: to }), 200);
      expect(types(events)).toEqual(['collection.updated', 'collection.updated', 'collection.updated']);
      const ids = [root.id, child.id, grandchild.id] as string[];
      expect(events.map((e) => (e.data as { id: string }).id).sort()).toEqual([...ids].sort());
      for (const event of events) {
        const id = (event.data as { id: string }).id;
        expect(event.data).toEqual(await getCollection(id));
        expect(event.data).toMatchObject({ sectionId: to });
      }
    });

    it('PUT translation → collection.updated with its translations', async () => {
      const collection = await createCollection({ title: 'Translated' });
      const { events } = await write(() => t.http.put(`/v1/collections/${collection.id}/translations/fr`).set(bearer(admin)).send({ title: 'Traduit' }), 201);
      expect(types(events)).toEqual(['collection.updated']);
      const view = await getCollection(collection.id as string);
      expect(view.translations).toEqual([expect.objectContaining({ language: 'fr', title: 'Traduit' })]);
      expect(events[0]!.data).toEqual(view);

      const replaced = await write(() => t.http.put(`/v1/collections/${collection.id}/translations/fr`).set(bearer(admin)).send({ title: 'Traduit 2', status: 'draft' }), 200);
      expect(types(replaced.events)).toEqual(['collection.updated']);
      expect(replaced.events[0]!.data).toEqual(await getCollection(collection.id as string));
    });

    it('DELETE → collection.deleted with the collection as it was', async () => {
      const collection = await createCollection({ title: 'Doomed', subtitle: 'Soon gone' });
      await t.http.put(`/v1/collections/${collection.id}/translations/fr`).set(bearer(admin)).send({ title: 'Condamné' }).expect(201);
      const before = await getCollection(collection.id as string);
      const { events } = await write(() => t.http.delete(`/v1/collections/${collection.id}`).set(bearer(admin)), 200);
      expect(types(events)).toEqual(['collection.deleted']);
      expect(events[0]!.data).toEqual(before);
      await t.http.get(`/v1/collections/${collection.id}`).set(bearer(admin)).expect(404);
    });

    it('failed writes record nothing: 400, 404, 409', async () => {
      const parent = await createCollection({ title: 'Has a child' });
      const child = await createCollection({ title: 'The child', parentCollectionId: parent.id });
      const holder = await createCollection({ title: 'Holds an article' });
      await createArticle({ collectionId: holder.id });
      await failsSilently(() => t.http.post('/v1/collections').set(bearer(admin)).send({ subtitle: 'no title' }), 400);
      await failsSilently(() => t.http.post('/v1/collections').set(bearer(admin)).send({ title: 'x', sectionId: UNKNOWN_SECTION }), 400);
      await failsSilently(() => t.http.patch(`/v1/collections/${parent.id}`).set(bearer(admin)).send({ shortId: 'Not Valid' }), 400);
      await failsSilently(() => t.http.post(`/v1/collections/${parent.id}/move`).set(bearer(admin)).send({ parent_collection_id: child.id }), 400);
      await failsSilently(() => t.http.post(`/v1/collections/${parent.id}/move`).set(bearer(admin)).send({}), 400);
      await failsSilently(() => t.http.put(`/v1/collections/${parent.id}/translations/de`).set(bearer(admin)).send({ title: 'x' }), 400);
      await failsSilently(() => t.http.patch(`/v1/collections/${UNKNOWN_COLLECTION}`).set(bearer(admin)).send({ title: 'x' }), 404);
      await failsSilently(() => t.http.post(`/v1/collections/${UNKNOWN_COLLECTION}/move`).set(bearer(admin)).send({ section_id: null }), 404);
      await failsSilently(() => t.http.put(`/v1/collections/${UNKNOWN_COLLECTION}/translations/fr`).set(bearer(admin)).send({ title: 'x' }), 404);
      await failsSilently(() => t.http.delete(`/v1/collections/${UNKNOWN_COLLECTION}`).set(bearer(admin)), 404);
      await failsSilently(() => t.http.delete(`/v1/collections/${parent.id}`).set(bearer(admin)), 409);
      await failsSilently(() => t.http.delete(`/v1/collections/${holder.id}`).set(bearer(admin)), 409);
      await failsSilently(() => t.http.patch(`/v1/collections/${child.id}`).set(bearer(admin)).send({ shortId: parent.shortId }), 409);
    });
  });

  describe('sections', () => {
    it('POST → section.created with the section as GET shows it', async () => {
      const { res, events } = await write(() => t.http.post('/v1/sections').set(bearer(admin)).send({ name: 'Created section', position: 42 }), 201);
      expect(types(events)).toEqual(['section.created']);
      expect(events[0]!.data).toEqual(await getSection(res.body.id));
      expect(events[0]!.data).toEqual(res.body);
    });

    it('PATCH → section.updated; a PATCH that changes nothing records nothing', async () => {
      const section = await createSection('To rename');
      await clockPast(section.updatedAt as string);
      const { res, events } = await write(() => t.http.patch(`/v1/sections/${section.id}`).set(bearer(admin)).send({ name: 'Renamed section', position: 7 }), 200);
      expect(types(events)).toEqual(['section.updated']);
      const view = await getSection(section.id as string);
      expect(view).toMatchObject({ name: 'Renamed section', position: 7 });
      expect(view.updatedAt).not.toBe(section.updatedAt);
      expect(events[0]!.data).toEqual(view);
      expect(events[0]!.data).toEqual(res.body);

      for (const body of [{}, { name: 'Renamed section' }, { position: 7 }]) {
        const same = await write(() => t.http.patch(`/v1/sections/${section.id}`).set(bearer(admin)).send(body), 200);
        expect({ body, types: types(same.events) }).toEqual({ body, types: [] });
      }
    });

    it('PUT translation → section.updated with its translations', async () => {
      const section = await createSection('Translated section');
      const { events } = await write(() => t.http.put(`/v1/sections/${section.id}/translations/fr`).set(bearer(admin)).send({ name: 'Section traduite' }), 201);
      expect(types(events)).toEqual(['section.updated']);
      const view = await getSection(section.id as string);
      expect(view.translations).toEqual([expect.objectContaining({ language: 'fr', name: 'Section traduite' })]);
      expect(events[0]!.data).toEqual(view);

      const replaced = await write(() => t.http.put(`/v1/sections/${section.id}/translations/fr`).set(bearer(admin)).send({ name: 'Encore', status: 'draft' }), 200);
      expect(types(replaced.events)).toEqual(['section.updated']);
      expect(replaced.events[0]!.data).toEqual(await getSection(section.id as string));
    });

    it('DELETE → section.deleted with the section as it was', async () => {
      const section = await createSection('Doomed section');
      await t.http.put(`/v1/sections/${section.id}/translations/fr`).set(bearer(admin)).send({ name: 'Condamnée' }).expect(201);
      const before = await getSection(section.id as string);
      const { events } = await write(() => t.http.delete(`/v1/sections/${section.id}`).set(bearer(admin)), 200);
      expect(types(events)).toEqual(['section.deleted']);
      expect(events[0]!.data).toEqual(before);
      await t.http.get(`/v1/sections/${section.id}`).set(bearer(admin)).expect(404);
    });

    it('making a section the default also records section.updated for the previous default (PATCH and POST)', async () => {
      const previous = (await t.http.get('/v1/sections').query({ page_size: 100 }).set(bearer(admin)).expect(200)).body.results.find((s: Json) => s.isDefault) as Json;
      const next = await createSection('Next default');
      const patched = await write(() => t.http.patch(`/v1/sections/${next.id}`).set(bearer(admin)).send({ isDefault: true }), 200);
      expect(types(patched.events)).toEqual(['section.updated', 'section.updated']);
      expect(patched.events.map((e) => e.data.id)).toEqual([previous.id, next.id]);
      expect(patched.events[0]!.data).toEqual(await getSection(previous.id as string));
      expect(patched.events[0]!.data.isDefault).toBe(false);
      expect(patched.events[1]!.data).toEqual(await getSection(next.id as string));
      expect(patched.events[1]!.data.isDefault).toBe(true);

      // Already the default: nothing changes.
      const again = await write(() => t.http.patch(`/v1/sections/${next.id}`).set(bearer(admin)).send({ isDefault: true }), 200);
      expect(types(again.events)).toEqual([]);

      const created = await write(() => t.http.post('/v1/sections').set(bearer(admin)).send({ name: 'Created default', isDefault: true }), 201);
      expect(types(created.events)).toEqual(['section.updated', 'section.created']);
      expect(created.events.map((e) => e.data.id)).toEqual([next.id, created.res.body.id]);
      expect(created.events[0]!.data).toEqual(await getSection(next.id as string));
      expect(created.events[0]!.data.isDefault).toBe(false);
      expect(created.events[1]!.data).toEqual(await getSection(created.res.body.id));
      expect(created.events[1]!.data.isDefault).toBe(true);

      // Back to the original default, so the other tests' `general` stays the default.
      const back = await write(() => t.http.patch(`/v1/sections/${general}`).set(bearer(admin)).send({ isDefault: true }), 200);
      expect(back.events.map((e) => e.data.id)).toEqual([created.res.body.id, general]);
    });

    it('failed writes record nothing: 400, 404, 409 (deleting the default or a non-empty section, un-defaulting the default)', async () => {
      const full = await createSection('Not empty');
      await createArticle({ sectionId: full.id });
      await failsSilently(() => t.http.post('/v1/sections').set(bearer(admin)).send({ name: '' }), 400);
      await failsSilently(() => t.http.post('/v1/sections').set(bearer(admin)).send({ name: 'x', position: -1 }), 400);
      await failsSilently(() => t.http.patch(`/v1/sections/${full.id}`).set(bearer(admin)).send({ position: 'first' }), 400);
      await failsSilently(() => t.http.put(`/v1/sections/${full.id}/translations/de`).set(bearer(admin)).send({ name: 'x' }), 400);
      await failsSilently(() => t.http.patch(`/v1/sections/${UNKNOWN_SECTION}`).set(bearer(admin)).send({ name: 'x' }), 404);
      await failsSilently(() => t.http.put(`/v1/sections/${UNKNOWN_SECTION}/translations/fr`).set(bearer(admin)).send({ name: 'x' }), 404);
      await failsSilently(() => t.http.delete(`/v1/sections/${UNKNOWN_SECTION}`).set(bearer(admin)), 404);
      await failsSilently(() => t.http.delete(`/v1/sections/${general}`).set(bearer(admin)), 409);
      await failsSilently(() => t.http.patch(`/v1/sections/${general}`).set(bearer(admin)).send({ isDefault: false }), 409);
      await failsSilently(() => t.http.delete(`/v1/sections/${full.id}`).set(bearer(admin)), 409);
    });
  });
});
