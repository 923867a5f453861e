import { Injectable } from '@nestjs/common';
import { Principal } from '#core';
import { ArticleAccess } from './article-access.js';
import type { ArticleRecord } from './article-read.repository.js';

/** One published article as an anonymous reader sees it (HTML); 404 for drafts, trashed and unknown articles. */
@Injectable()
export class GetPublishedArticleUseCase {
  constructor(private readonly access: ArticleAccess) {}

  execute(id: string): Promise<ArticleRecord> {
    return this.access.record(id, 'html', Principal.reader());
  }
}
