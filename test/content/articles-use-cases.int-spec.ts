import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DomainError, Principal } from '#core';
import {
  ContentModule,
  CreateArticleUseCase,
  GetArticleUseCase,
  PublishArticleUseCase,
  SearchArticlesUseCase,
  UnpublishArticleUseCase,
  UpdateArticleUseCase,
} from '#content';
import { ArticleRepository } from '../../libs/content/src/articles/application/article.repository.js';
import { SlugTakenError } from '../../libs/content/src/articles/domain/article-errors.js';
import { Article } from '../../libs/content/src/articles/domain/article.js';
import { createUseCaseModule, type UseCaseModule } from '../support/use-case-module.js';

// The articles' use cases below HTTP: ContentModule with its SQL adapters against a PostgreSQL database of this
// file's own. What the endpoints rely on: each write returns the article as its transaction left it (the version
// an ETag is made of), a slug conflict is a domain error, publishing takes turns, and search follows publishing.

jest.setTimeout(60_000);

const writer = new Principal('key_writer', ['content:write']);
const publisher = new Principal('key_publisher', ['content:write', 'content:publish']);

describe('articles use cases (real PostgreSQL)', () => {
  let t: UseCaseModule;
  let sectionId: string;
  let helpdeskId: string;
  let n = 0;

  const use = <T>(type: abstract new (...args: never[]) => T): T => t.get(type);
  const unique = (word: string) => `${word} ${process.pid}-${++n}`;

  const rows = <T>(sql: string, params: unknown[] = []): Promise<T[]> => t.rows<T>(sql, params);

  /** The error a promise rejects with (fails when it resolves). */
  async function failure(promise: Promise<unknown>): Promise<unknown> {
    return promise.then(
      () => {
        throw new Error('expected a rejection');
      },
      (error: unknown) => error,
    );
  }

  beforeAll(async () => {
    t = await createUseCaseModule([ContentModule]);
    [{ id: sectionId, helpdeskId }] = await rows<{ id: string; helpdeskId: string }>('SELECT id, helpdesk_id AS "helpdeskId" FROM sections WHERE is_default');
  });
  afterAll(() => t?.close());

  describe('create, publish, update', () => {
    it('each write returns the article as its transaction left it; an update expecting an older version is refused and writes nothing', async () => {
      const title = unique('Reset your password');
      const created = await use(CreateArticleUseCase).execute({ title, markdown: 'First *draft*.', sectionId }, writer);
      expect(created.draftId).toMatch(/^drf_/);
      expect(created.record).toMatchObject({ title, draftId: created.draftId, props: { status: 'draft', liveRevisionId: null } });
      expect(created.record.content).toContain('<em>draft</em>');

      const published = await use(PublishArticleUseCase).execute(created.record.props.id, publisher.keyId);
      expect(published).toMatchObject({ title, draftId: null, props: { status: 'published', latestVersion: 2 } });
      expect(published.props.liveRevisionId).toEqual(published.props.currentRevisionId);
      expect(published.rowVersion).toBeGreaterThan(created.record.rowVersion);
      // What the use case returned is what is stored once it committed.
      const [stored] = await rows<{ rowVersion: number }>('SELECT row_version AS "rowVersion" FROM articles WHERE id = $1', [published.props.id]);
      expect(stored!.rowVersion).toBe(published.rowVersion);

      const stale = await failure(
        use(UpdateArticleUseCase).execute(published.props.id, { markdown: 'Too late' }, writer, { expectedVersions: [created.record.rowVersion] }),
      );
      expect(stale).toBeInstanceOf(DomainError);
      expect(stale).toMatchObject({ code: 'precondition_failed' });
      const afterRefusal = await use(GetArticleUseCase).execute(published.props.id, 'markdown', writer);
      expect(afterRefusal).toMatchObject({ rowVersion: published.rowVersion, draftId: null, props: { latestVersion: 2 } });
      expect(await rows('SELECT 1 FROM article_drafts WHERE article_id = $1', [published.props.id])).toEqual([]);

      const updated = await use(UpdateArticleUseCase).execute(published.props.id, { markdown: 'Second draft.' }, writer, {
        expectedVersions: [published.rowVersion - 1, published.rowVersion],
      });
      // A published article shows its live content; the edit went to a new open draft.
      expect(updated.draftId).toMatch(/^drf_/);
      expect(updated.record).toMatchObject({ draftId: updated.draftId, props: { status: 'published', latestVersion: 3, liveRevisionId: published.props.liveRevisionId } });
      expect(updated.record.content).toContain('First <em>draft</em>.');
      expect(updated.record.rowVersion).toBe(published.rowVersion + 1);
      // No expectation: the write goes through whatever the version.
      const unconditional = await use(UpdateArticleUseCase).execute(published.props.id, { keywords: 'password' }, publisher);
      expect(unconditional.record).toMatchObject({ rowVersion: updated.record.rowVersion + 1, props: { keywords: 'password' } });
    });
  });

  describe('slugs', () => {
    it('a slug another article holds is slug_taken, whether the use case sees it first or the unique constraint does', async () => {
      const first = await use(CreateArticleUseCase).execute({ title: unique('Billing'), slug: `billing-${process.pid}`, sectionId }, writer);
      const taken = await failure(use(CreateArticleUseCase).execute({ title: unique('Other billing'), slug: `billing-${process.pid}`, sectionId }, writer));
      expect(taken).toBeInstanceOf(SlugTakenError);
      expect(taken).toMatchObject({ code: 'slug_taken' });

      // Past the use case's check (a writer that raced it): the repository turns the constraint violation into the same error.
      const now = new Date();
      const racer = Article.create(
        { helpdeskId, sectionId, collectionId: null, slug: first.record.props.slug, customSlug: true, keywords: null, metaDescription: null, ogImage: null },
        now,
      );
      const violation = await failure(use(ArticleRepository).insert(racer));
      expect(violation).toBeInstanceOf(SlugTakenError);
      expect(violation).toMatchObject({ code: 'slug_taken', message: expect.stringContaining(first.record.props.slug) });

      const second = await use(CreateArticleUseCase).execute({ title: unique('Refunds'), sectionId }, writer);
      const renamed = await failure(use(UpdateArticleUseCase).execute(second.record.props.id, { slug: first.record.props.slug }, writer));
      expect(renamed).toBeInstanceOf(SlugTakenError);
    });

    it('two creates racing for one custom slug: one article, one slug_taken', async () => {
      const slug = `race-${process.pid}`;
      const outcomes = await Promise.allSettled([1, 2].map((i) => use(CreateArticleUseCase).execute({ title: unique(`Race ${i}`), slug, sectionId }, writer)));
      expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(SlugTakenError);
      expect(await rows('SELECT id FROM articles WHERE slug = $1', [slug])).toHaveLength(1);
    });
  });

  describe('concurrent publishes', () => {
    it('of one article take turns: one new live revision, one event, the others find nothing new to publish', async () => {
      const created = await use(CreateArticleUseCase).execute({ title: unique('Concurrent'), markdown: 'Body', sectionId }, writer);
      const id = created.record.props.id;
      const results = await Promise.all([1, 2, 3, 4].map(() => use(PublishArticleUseCase).execute(id, publisher.keyId)));

      const revisions = await rows<{ id: string; version: number; wentLive: boolean }>(
        'SELECT id, version, went_live_at IS NOT NULL AS "wentLive" FROM article_revisions WHERE article_id = $1 ORDER BY version',
        [id],
      );
      expect(revisions.map((r) => [r.version, r.wentLive])).toEqual([
        [1, false],
        [2, true],
      ]);
      const [article] = await rows<Record<string, unknown>>(
        `SELECT status, live_revision_id AS "live", current_revision_id AS "current", latest_version AS "latest", row_version AS "rowVersion",
           search_vector IS NOT NULL AS "indexed", (SELECT count(*)::int FROM article_drafts d WHERE d.article_id = a.id) AS drafts
         FROM articles a WHERE id = $1`,
        [id],
      );
      expect(article).toEqual({ status: 'published', live: revisions[1]!.id, current: revisions[1]!.id, latest: 2, rowVersion: expect.any(Number), indexed: true, drafts: 0 });
      expect(await rows("SELECT 1 FROM outbox_events WHERE type = 'article.published' AND data->>'id' = $1", [id])).toHaveLength(1);
      // Every caller got the live article; the last one to commit saw the row as it is now.
      for (const result of results) expect(result).toMatchObject({ draftId: null, props: { status: 'published', liveRevisionId: revisions[1]!.id } });
      expect(Math.max(...results.map((r) => r.rowVersion))).toBe(article!.rowVersion);
    });
  });

  describe('search', () => {
    it('finds a published article and not a draft; unpublishing takes it out, publishing puts it back', async () => {
      const word = `zebracorn${process.pid}`;
      const live = await use(CreateArticleUseCase).execute({ title: unique('Live article'), markdown: `All about the ${word}.`, sectionId, publish: true }, publisher);
      const draft = await use(CreateArticleUseCase).execute({ title: unique('Draft article'), markdown: `Also about the ${word}.`, sectionId }, writer);
      const search = () => use(SearchArticlesUseCase).execute({ query: word });

      const found = await search();
      expect(found.results.map((hit) => hit.articleId)).toEqual([live.record.props.id]);
      expect(found.results[0]!.snippet).toContain(`<mark>${word}</mark>`);

      await use(UnpublishArticleUseCase).execute(live.record.props.id);
      expect((await search()).results).toEqual([]);

      await use(PublishArticleUseCase).execute(draft.record.props.id, publisher.keyId);
      expect((await search()).results.map((hit) => hit.articleId)).toEqual([draft.record.props.id]);
      // A new draft of a live article does not change what search finds.
      await use(UpdateArticleUseCase).execute(draft.record.props.id, { markdown: 'Nothing to see here.' }, writer);
      expect((await search()).results.map((hit) => hit.articleId)).toEqual([draft.record.props.id]);
    });
  });
});
