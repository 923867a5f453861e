import { Injectable } from '@nestjs/common';
import { Clock, newId, type Principal, UnitOfWork } from '#core';
import { CurrentHelpdesk } from '../../helpdesk/application/current-helpdesk.js';
import { ContentEvents } from '../../shared/application/content-events.js';
import { Article, type ArticleSeo } from '../domain/article.js';
import { ArticleBodies, type BodyInput } from './article-bodies.js';
import { ArticlePlacement } from './article-placement.js';
import { ArticleReadRepository, type ArticleRecord, type ContentFormat } from './article-read.repository.js';
import { ArticleSlugs } from './article-slugs.js';
import { ArticleRepository } from './article.repository.js';

export interface CreateArticleCommand extends BodyInput, Partial<ArticleSeo> {
  readonly title: string;
  readonly sectionId: string;
  readonly collectionId?: string | null;
  readonly slug?: string;
  /** Legacy: publish at once (needs content:publish). */
  readonly publish?: boolean;
}

export interface CreatedArticle {
  /** The article as created (read in the transaction that created it). */
  readonly record: ArticleRecord;
  /** The open draft created, or null when published at once. */
  readonly draftId: string | null;
}

/** Creates an article as an open draft (version 1), or published at once in the legacy mode. */
@Injectable()
export class CreateArticleUseCase {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly views: ArticleReadRepository,
    private readonly bodies: ArticleBodies,
    private readonly slugs: ArticleSlugs,
    private readonly placement: ArticlePlacement,
    private readonly helpdesk: CurrentHelpdesk,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateArticleCommand, principal: Principal, format: ContentFormat = 'html'): Promise<CreatedArticle> {
    if (command.publish) principal.require('content:publish');
    // A bad section or collection is 400 before the body's images are fetched and stored; checked again below.
    if (command.content !== undefined || command.markdown !== undefined) {
      await this.unitOfWork.run(() => this.placement.check(command.sectionId, command.collectionId ?? null));
    }
    const content = (await this.bodies.fromInput(command)) ?? this.bodies.empty();
    const helpdesk = await this.helpdesk.get();
    return this.unitOfWork.run(async () => {
      const collectionId = command.collectionId ?? null;
      await this.placement.check(command.sectionId, collectionId);
      const slug = command.slug !== undefined ? await this.slugs.claim(command.slug) : await this.slugs.generate(command.title);
      const now = this.clock.now();
      const article = Article.create(
        {
          helpdeskId: helpdesk.id,
          sectionId: command.sectionId,
          collectionId,
          slug,
          customSlug: command.slug !== undefined,
          keywords: command.keywords ?? null,
          metaDescription: command.metaDescription ?? null,
          ogImage: command.ogImage ?? null,
        },
        now,
      );
      const revision = article.addRevision(command.title, content, principal.keyId, now);
      // Two writers racing for one slug: the loser gets slug_taken (SlugTakenError) from the repository.
      await this.articles.insert(article);
      await this.articles.insertRevision(revision);
      let draftId: string | null = null;
      if (command.publish) {
        article.publish(revision, now);
      } else {
        draftId = newId('drf');
        await this.articles.saveDraft({ id: draftId, articleId: article.id, revisionId: revision.id, baseRevisionId: null, createdAt: now, updatedAt: now });
      }
      await this.articles.save(article);
      await this.events.article('article.created', article.id);
      if (command.publish) await this.events.article('article.published', article.id);
      return { record: (await this.views.findRecord(article.id, format))!, draftId };
    });
  }
}
