import { Injectable } from '@nestjs/common';
import { Clock, newId, UnitOfWork } from '#core';
import { ContentEvents } from '../../shared/application/content-events.js';
import { ArticleRepository } from './article.repository.js';
import { GetLockedArticle } from './get-locked-article.js';

/** Takes a published article offline; its last live content becomes the open draft. */
@Injectable()
export class UnpublishArticleUseCase {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly locked: GetLockedArticle,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute(id: string): Promise<void> {
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
      await this.articles.update(article);
      await this.articles.refreshSearch(id);
      await this.events.article('article.unpublished', id);
    });
  }
}
