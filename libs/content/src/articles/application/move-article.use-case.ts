import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import { ContentEvents } from '../../shared/application/content-events.js';
import { ArticlePlacement } from './article-placement.js';
import { ArticleReadRepository, type ArticleRecord } from './article-read.repository.js';
import { ArticleRepository } from './article.repository.js';
import { GetLockedArticle } from './get-locked-article.js';

export interface MoveArticleCommand {
  /** null: out of any collection. Omitted: unchanged. */
  readonly collectionId?: string | null;
  /** Omitted: unchanged. */
  readonly sectionId?: string;
}

/** Puts an article in another section and/or collection (both must exist). Returns the article after the change. */
@Injectable()
export class MoveArticleUseCase {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly views: ArticleReadRepository,
    private readonly locked: GetLockedArticle,
    private readonly placement: ArticlePlacement,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute(id: string, command: MoveArticleCommand): Promise<ArticleRecord> {
    return this.unitOfWork.run(async () => {
      const article = await this.locked.get(id);
      const current = article.snapshot();
      const sectionId = command.sectionId ?? current.sectionId;
      const collectionId = command.collectionId === undefined ? current.collectionId : command.collectionId;
      await this.placement.check(sectionId, collectionId, { section: 'section_id', collection: 'collection_id' });
      article.moveTo(sectionId, collectionId, this.clock.now());
      await this.articles.save(article);
      if (sectionId !== current.sectionId || collectionId !== current.collectionId) await this.events.article('article.moved', id);
      return (await this.views.findRecord(id, 'html'))!;
    });
  }
}
