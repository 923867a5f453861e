import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import { type ArticleEvent, ContentEvents } from '../../shared/application/content-events.js';
import type { Article } from '../domain/article.js';
import { ArticleReadRepository, type ArticleRecord } from './article-read.repository.js';
import { ArticleRepository } from './article.repository.js';
import { GetLockedArticle } from './get-locked-article.js';

/**
 * One change of an article's state (trash, restore, unpublish, discard the draft), for the use cases that make
 * one: in one transaction, the article row-locked, `change` applied to it (it may refuse by throwing; `now` reads the
 * clock), the article saved, `event` recorded, and the article returned as the endpoint shows it (HTML).
 */
@Injectable()
export class ArticleStateChange {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly views: ArticleReadRepository,
    private readonly locked: GetLockedArticle,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  apply(id: string, event: ArticleEvent, change: (article: Article, now: () => Date) => void | Promise<void>): Promise<ArticleRecord> {
    return this.unitOfWork.run(async () => {
      const article = await this.locked.get(id);
      await change(article, () => this.clock.now());
      await this.articles.save(article);
      await this.events.article(event, id);
      return (await this.views.findRecord(id, 'html'))!;
    });
  }
}
