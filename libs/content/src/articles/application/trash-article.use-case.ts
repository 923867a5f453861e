import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import { ContentEvents } from '../../shared/application/content-events.js';
import type { ArticleStatus } from '../domain/article.js';
import { ArticleRepository } from './article.repository.js';
import { GetLockedArticle } from './get-locked-article.js';

/** Moves an article to the trash (it leaves every list and search). */
@Injectable()
export class TrashArticleUseCase {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly locked: GetLockedArticle,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute(id: string): Promise<{ id: string; status: ArticleStatus }> {
    return this.unitOfWork.run(async () => {
      const article = await this.locked.get(id);
      article.trash(this.clock.now());
      await this.articles.update(article);
      await this.events.article('article.trashed', id);
      return { id, status: article.status };
    });
  }
}
