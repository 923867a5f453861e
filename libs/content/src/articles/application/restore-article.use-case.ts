import { Injectable } from '@nestjs/common';
import type { Principal } from '#core';
import type { ArticleRecord } from './article-read.repository.js';
import { ArticleStateChange } from './article-state-change.js';

/**
 * Restores a trashed article to the state it held; restoring a published one needs content:publish too. Returns
 * the article after the change.
 */
@Injectable()
export class RestoreArticleUseCase {
  constructor(private readonly stateChange: ArticleStateChange) {}

  execute(id: string, principal: Principal): Promise<ArticleRecord> {
    return this.stateChange.apply(id, 'article.restored', (article, now) => {
      if (article.status === 'trashed' && article.statusBeforeTrash === 'published') principal.require('content:publish');
      article.restore(now());
    });
  }
}
