import { Injectable } from '@nestjs/common';
import type { ArticleRecord } from './article-read.repository.js';
import { ArticleStateChange } from './article-state-change.js';

/** Moves an article to the trash (it leaves every list and search). Returns the article after the change. */
@Injectable()
export class TrashArticleUseCase {
  constructor(private readonly stateChange: ArticleStateChange) {}

  execute(id: string): Promise<ArticleRecord> {
    return this.stateChange.apply(id, 'article.trashed', (article, now) => article.trash(now()));
  }
}
