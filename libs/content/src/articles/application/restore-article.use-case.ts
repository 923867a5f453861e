import { Injectable } from '@nestjs/common';
import { Clock, type Principal, UnitOfWork } from '#core';
import { ContentEvents } from '../../shared/application/content-events.js';
import { ArticleReadRepository, type ArticleRecord } from './article-read.repository.js';
import { ArticleRepository } from './article.repository.js';
import { GetLockedArticle } from './get-locked-article.js';

/**
 * Restores a trashed article to the state it held; restoring a published one needs content:publish too. Returns
 * the article after the change.
 */
@Injectable()
export class RestoreArticleUseCase {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly views: ArticleReadRepository,
    private readonly locked: GetLockedArticle,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute(id: string, principal: Principal): Promise<ArticleRecord> {
    return this.unitOfWork.run(async () => {
      const article = await this.locked.get(id);
      if (article.status === 'trashed' && article.statusBeforeTrash === 'published') principal.require('content:publish');
      article.restore(this.clock.now());
      await this.articles.save(article);
      await this.events.article('article.restored', id);
      return (await this.views.findRecord(id, 'html'))!;
    });
  }
}
