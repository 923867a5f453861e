import { Injectable } from '@nestjs/common';
import { Clock, InvalidStateError, UnitOfWork } from '#core';
import { ContentEvents } from '../../shared/application/content-events.js';
import { ArticleRepository } from './article.repository.js';
import { GetLockedArticle } from './get-locked-article.js';

/** Discards the open draft; the article shows its live content again. A never-published article keeps its draft. */
@Injectable()
export class DiscardArticleDraftUseCase {
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
      if (!(await this.articles.findDraft(id))) throw new InvalidStateError(`Article ${id} has no open draft`);
      const live = article.snapshot().liveRevisionId ?? (await this.lastPublished(id));
      if (!live) throw new InvalidStateError(`Article ${id} has never been published: its draft is its only content (trash the article instead)`);
      await this.articles.deleteDraft(id);
      article.show(live, this.clock.now());
      await this.articles.update(article);
      await this.events.article('article.updated', id);
    });
  }

  /** After an unpublish the live revision is gone from the article; the draft then started from it. */
  private async lastPublished(id: string): Promise<string | null> {
    return (await this.articles.findDraft(id))?.baseRevisionId ?? null;
  }
}
