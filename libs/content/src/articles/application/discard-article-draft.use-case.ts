import { Injectable } from '@nestjs/common';
import { Clock, InvalidStateError, UnitOfWork } from '#core';
import { ContentEvents } from '../../shared/application/content-events.js';
import { ArticleReadRepository, type ArticleRecord } from './article-read.repository.js';
import { ArticleRepository } from './article.repository.js';
import { GetLockedArticle } from './get-locked-article.js';

/**
 * Discards the open draft; the article shows its live content again. A never-published article keeps its draft.
 * Returns the article after the change (HTML).
 */
@Injectable()
export class DiscardArticleDraftUseCase {
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
      const draft = await this.articles.findDraft(id);
      if (!draft) throw new InvalidStateError(`Article ${id} has no open draft`);
      // After an unpublish the live revision is gone from the article; the draft then started from it.
      const live = article.liveRevisionId ?? draft.baseRevisionId;
      if (!live) throw new InvalidStateError(`Article ${id} has never been published: its draft is its only content (trash the article instead)`);
      await this.articles.deleteDraft(id);
      article.show(live, this.clock.now());
      await this.articles.save(article);
      await this.events.article('article.updated', id);
      return (await this.views.findRecord(id, 'html'))!;
    });
  }
}
