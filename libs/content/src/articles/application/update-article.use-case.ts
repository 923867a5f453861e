import { Injectable } from '@nestjs/common';
import { Clock, DomainError, InvalidStateError, type Principal, UnitOfWork } from '#core';
import { ContentEvents } from '../../shared/application/content-events.js';
import type { Article, ArticleProps, ArticleSeo } from '../domain/article.js';
import { ArticleBodies, type BodyInput } from './article-bodies.js';
import { etagOf } from './article-access.js';
import { ArticleDrafts } from './article-drafts.js';
import { ArticleSlugs } from './article-slugs.js';
import { type ArticleRecord, ArticleRepository, type ContentFormat } from './article.repository.js';
import { insertWithSlugGuard } from './create-article.use-case.js';
import { GetLockedArticle } from './get-locked-article.js';
import { PublishArticleUseCase } from './publish-article.use-case.js';

export interface UpdateArticleCommand extends BodyInput, Partial<ArticleSeo> {
  readonly title?: string;
  readonly slug?: string;
  /** Legacy: publish the draft at once (needs content:publish). */
  readonly publish?: boolean;
}

/**
 * Writes the open draft (opening one from the live revision when none is open): a title or body change records
 * a revision; slug and SEO fields change the article. `If-Match` must equal the article's ETag (412 otherwise).
 */
@Injectable()
export class UpdateArticleUseCase {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly locked: GetLockedArticle,
    private readonly bodies: ArticleBodies,
    private readonly drafts: ArticleDrafts,
    private readonly slugs: ArticleSlugs,
    private readonly publisher: PublishArticleUseCase,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(
    id: string,
    command: UpdateArticleCommand,
    principal: Principal,
    options: { ifMatch?: string; format?: ContentFormat } = {},
  ): Promise<{ record: ArticleRecord; draftId: string | null }> {
    if (command.publish) principal.require('content:publish');
    // 404, 409 and 412 before the body's images are fetched and stored; checked again under the lock below.
    if (command.content !== undefined || command.markdown !== undefined) await this.unitOfWork.run(() => this.writable(id, options.ifMatch));
    const content = await this.bodies.fromInput(command);
    await this.unitOfWork.run(async () => {
      const article = await this.writable(id, options.ifMatch);
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
      await insertWithSlugGuard(() => this.articles.update(article), article.slug);
      if (draftWritten || articleFieldsChanged(before, article.snapshot())) await this.events.article('article.updated', id);
      // Records article.published itself, when it published something.
      if (command.publish) await this.publisher.publish(article, principal.keyId);
    });
    const record = (await this.articles.findRecord(id, options.format ?? 'html'))!;
    return { record, draftId: record.draftId };
  }

  /** The article, locked, if it may be written: 404 when unknown, 409 when trashed, 412 when If-Match fails. */
  private async writable(id: string, ifMatch: string | undefined): Promise<Article> {
    const article = await this.locked.get(id);
    if (article.status === 'trashed') throw new InvalidStateError(`Article ${id} is trashed; restore it to edit it`);
    if (ifMatch !== undefined) {
      const current = await this.articles.findRecord(id, 'json');
      if (!ifMatchHolds(ifMatch, etagOf(current!))) {
        throw new DomainError('precondition_failed', 'If-Match does not match the article\'s current ETag');
      }
    }
    return article;
  }
}

/** Whether the slug or an SEO field changed (they change the article, not its draft). */
function articleFieldsChanged(before: Readonly<ArticleProps>, after: Readonly<ArticleProps>): boolean {
  return (['slug', 'keywords', 'metaDescription', 'ogImage'] as const).some((field) => before[field] !== after[field]);
}

/**
 * RFC 9110 If-Match: `*` or a list of entity tags, one of which must equal the current one by the strong
 * comparison (§8.8.3.2): a weak tag (`W/"…"`) never matches, whatever its value.
 */
function ifMatchHolds(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim() === etag);
}
