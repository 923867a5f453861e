import { Injectable } from '@nestjs/common';
import { Clock, InvalidStateError, type Principal, UnitOfWork } from '#core';
import { ContentEvents } from '../../shared/application/content-events.js';
import { ArticleVersionMismatchError } from '../domain/article-errors.js';
import type { Article, ArticleProps, ArticleSeo } from '../domain/article.js';
import { ArticleBodies, type BodyInput } from './article-bodies.js';
import { ArticleDrafts } from './article-drafts.js';
import { ArticlePublication } from './article-publication.js';
import { ArticleReadRepository, type ArticleRecord, type ContentFormat } from './article-read.repository.js';
import { ArticleSlugs } from './article-slugs.js';
import { ArticleRepository } from './article.repository.js';
import { GetLockedArticle } from './get-locked-article.js';

export interface UpdateArticleCommand extends BodyInput, Partial<ArticleSeo> {
  readonly title?: string;
  readonly slug?: string;
  /** Legacy: publish the draft at once (needs content:publish). */
  readonly publish?: boolean;
}

export interface UpdateArticleOptions {
  /**
   * The versions of the article the writer expects it to be at (any one of them): the write is refused with
   * precondition_failed when it is at another (it changed since the writer read it). Undefined: no expectation.
   */
  readonly expectedVersions?: readonly number[];
  readonly format?: ContentFormat;
}

/**
 * Writes the open draft (opening one from the live revision when none is open): a title or body change records
 * a revision; slug and SEO fields change the article. Returns the article as written, with its open draft.
 */
@Injectable()
export class UpdateArticleUseCase {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly views: ArticleReadRepository,
    private readonly locked: GetLockedArticle,
    private readonly bodies: ArticleBodies,
    private readonly drafts: ArticleDrafts,
    private readonly slugs: ArticleSlugs,
    private readonly publication: ArticlePublication,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, command: UpdateArticleCommand, principal: Principal, options: UpdateArticleOptions = {}): Promise<{ record: ArticleRecord; draftId: string | null }> {
    if (command.publish) principal.require('content:publish');
    // 404, 409 and 412 before the body's images are fetched and stored; checked again under the lock below.
    if (command.content !== undefined || command.markdown !== undefined) await this.unitOfWork.run(() => this.writable(id, options.expectedVersions));
    const content = await this.bodies.fromInput(command);
    return this.unitOfWork.run(async () => {
      const article = await this.writable(id, options.expectedVersions);
      // The slug and SEO fields of a published article are live at once (its URL, what search engines and shares
      // show): changing them is publishing, so it needs content:publish like publishing a draft does.
      if (article.changesLiveFields(command, command.slug)) principal.require('content:publish');
      const now = this.clock.now();
      const before = article.snapshot();
      let draftWritten = false;
      if (command.title !== undefined || content !== undefined) {
        const base = await this.drafts.currentRevision(article);
        const title = command.title ?? base.title;
        if (title !== base.title || content !== undefined) {
          await this.drafts.write(article, title, content ?? base.content, principal.keyId, now);
          draftWritten = true;
        }
        // A generated slug follows the title while the article is not live; a live article keeps its URL until a
        // slug is given explicitly (a draft's title must not move the published page).
        if (command.slug === undefined && !article.customSlug && title !== base.title && article.status !== 'published') {
          article.setSlug(await this.slugs.generate(title, article.id), false, now);
        }
      }
      if (command.slug !== undefined && command.slug !== article.slug) article.setSlug(await this.slugs.claim(command.slug, article.id), true, now);
      article.updateSeo(command, now);
      await this.articles.save(article);
      if (draftWritten || articleFieldsChanged(before, article.snapshot())) await this.events.article('article.updated', id);
      // Records article.published itself, when it published something.
      if (command.publish) await this.publication.publish(article, principal.keyId);
      const record = (await this.views.findRecord(id, options.format ?? 'html'))!;
      return { record, draftId: record.draftId };
    });
  }

  /** The article, locked, if it may be written: 404 when unknown, 409 when trashed, 412 when not at an expected version. */
  private async writable(id: string, expectedVersions: readonly number[] | undefined): Promise<Article> {
    const article = await this.locked.get(id);
    if (article.status === 'trashed') throw new InvalidStateError(`Article ${id} is trashed; restore it to edit it`);
    if (expectedVersions !== undefined && !expectedVersions.includes((await this.articles.versionOf(id))!)) throw new ArticleVersionMismatchError(id);
    return article;
  }
}

/** Whether the slug or an SEO field changed (they change the article, not its draft). */
function articleFieldsChanged(before: Readonly<ArticleProps>, after: Readonly<ArticleProps>): boolean {
  return (['slug', 'keywords', 'metaDescription', 'ogImage'] as const).some((field) => before[field] !== after[field]);
}
