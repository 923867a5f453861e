import { Injectable } from '@nestjs/common';
import { Clock, newId, UnitOfWork } from '#core';
import { ContentEvents } from '../../shared/application/content-events.js';
import { ArticleReadRepository, type ArticleRecord } from './article-read.repository.js';
import { ArticleRepository } from './article.repository.js';
import { GetLockedArticle } from './get-locked-article.js';

/** Takes a published article offline (and out of search); its last live content becomes the open draft. */
@Injectable()
export class UnpublishArticleUseCase {
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
      const live = article.liveRevisionId;
      const now = this.clock.now();
      article.unpublish(now);
      if (!(await this.articles.findDraft(id))) {
        await this.articles.saveDraft({ id: newId('drf'), articleId: id, revisionId: live!, baseRevisionId: live, createdAt: now, updatedAt: now });
      }
      const draft = (await this.articles.findDraft(id))!;
      article.show(draft.revisionId);
      await this.articles.save(article);
      await this.events.article('article.unpublished', id);
      return (await this.views.findRecord(id, 'html'))!;
    });
  }
}
