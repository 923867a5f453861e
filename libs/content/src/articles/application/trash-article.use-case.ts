import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import { ContentEvents } from '../../shared/application/content-events.js';
import { ArticleReadRepository, type ArticleRecord } from './article-read.repository.js';
import { ArticleRepository } from './article.repository.js';
import { GetLockedArticle } from './get-locked-article.js';

/** Moves an article to the trash (it leaves every list and search). Returns the article after the change. */
@Injectable()
export class TrashArticleUseCase {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly views: ArticleReadRepository,
    private readonly locked: GetLockedArticle,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute(id: string): Promise<ArticleRecord> {
    return this.unitOfWork.run(async () => {
      const article = await this.locked.get(id);
      article.trash(this.clock.now());
      await this.articles.save(article);
      await this.events.article('article.trashed', id);
      return (await this.views.findRecord(id, 'html'))!;
    });
  }
}
