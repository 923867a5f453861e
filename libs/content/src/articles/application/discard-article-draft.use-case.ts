import { Injectable } from '@nestjs/common';
import { InvalidStateError } from '#core';
import type { ArticleRecord } from './article-read.repository.js';
import { ArticleStateChange } from './article-state-change.js';
import { ArticleRepository } from './article.repository.js';

/**
 * Discards the open draft; the article shows its live content again. A never-published article keeps its draft.
 * Returns the article after the change (HTML).
 */
@Injectable()
export class DiscardArticleDraftUseCase {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly stateChange: ArticleStateChange,
  ) {}

  execute(id: string): Promise<ArticleRecord> {
    return this.stateChange.apply(id, 'article.updated', async (article, now) => {
      const draft = await this.articles.findDraft(id);
      if (!draft) throw new InvalidStateError(`Article ${id} has no open draft`);
      // After an unpublish the live revision is gone from the article; the draft then started from it.
      const live = article.liveRevisionId ?? draft.baseRevisionId;
      if (!live) throw new InvalidStateError(`Article ${id} has never been published: its draft is its only content (trash the article instead)`);
      await this.articles.deleteDraft(id);
      article.show(live, now());
    });
  }
}
