import { Injectable } from '@nestjs/common';
import { Clock, DomainError, isUniqueViolation, newId, type Principal, UnitOfWork } from '#core';
import { CurrentHelpdesk } from '../../helpdesk/application/current-helpdesk.js';
import { ContentEvents } from '../../shared/application/content-events.js';
import { Article, type ArticleSeo } from '../domain/article.js';
import { ArticleBodies, type BodyInput } from './article-bodies.js';
import { ArticlePlacement } from './article-placement.js';
import { ArticleSlugs } from './article-slugs.js';
import { ArticleRepository, type ArticleRecord, type ContentFormat } from './article.repository.js';

export interface CreateArticleCommand extends BodyInput, Partial<ArticleSeo> {
  readonly title: string;
  readonly sectionId: string;
  readonly collectionId?: string | null;
  readonly slug?: string;
  /** Legacy: publish at once (needs content:publish). */
  readonly publish?: boolean;
}

export interface CreatedArticle {
  readonly record: ArticleRecord;
  /** The open draft created, or null when published at once. */
  readonly draftId: string | null;
}

/** Creates an article as an open draft (version 1), or published at once in the legacy mode. */
@Injectable()
export class CreateArticleUseCase {
  constructor(
    private readonly articles: ArticleRepository,
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
    const draftId = await this.unitOfWork.run(async () => {
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
      await insertWithSlugGuard(() => this.articles.insert(article), slug);
      await this.articles.insertRevision(revision);
      let openDraft: string | null = null;
      if (command.publish) {
        article.publish(revision, now);
      } else {
        openDraft = newId('drf');
        await this.articles.saveDraft({ id: openDraft, articleId: article.id, revisionId: revision.id, baseRevisionId: null, createdAt: now, updatedAt: now });
      }
      await this.articles.update(article);
      if (command.publish) await this.articles.refreshSearch(article.id);
      await this.events.article('article.created', article.id);
      if (command.publish) await this.events.article('article.published', article.id);
      return { articleId: article.id, openDraft };
    });
    const record = (await this.articles.findRecord(draftId.articleId, format))!;
    return { record, draftId: draftId.openDraft };
  }
}

/** Two writers racing for one slug: the loser gets 409 slug_taken instead of a constraint error. */
export async function insertWithSlugGuard(write: () => Promise<void>, slug: string): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (isUniqueViolation(error, 'articles_slug_key')) throw new DomainError('slug_taken', `The slug ${slug} is already used by another article`);
    throw error;
  }
}
