import { Injectable } from '@nestjs/common';
import { newId } from '#core';
import type { ArticleRecord } from './article-read.repository.js';
import { ArticleStateChange } from './article-state-change.js';
import { ArticleRepository } from './article.repository.js';

/** Takes a published article offline (and out of search); its last live content becomes the open draft. */
@Injectable()
export class UnpublishArticleUseCase {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly stateChange: ArticleStateChange,
  ) {}

  execute(id: string): Promise<ArticleRecord> {
    return this.stateChange.apply(id, 'article.unpublished', async (article, now) => {
      const live = article.liveRevisionId;
      const at = now();
      article.unpublish(at);
      if (!(await this.articles.findDraft(id))) {
        await this.articles.saveDraft({ id: newId('drf'), articleId: id, revisionId: live!, baseRevisionId: live, createdAt: at, updatedAt: at });
      }
      const draft = (await this.articles.findDraft(id))!;
      article.show(draft.revisionId);
    });
  }
}
