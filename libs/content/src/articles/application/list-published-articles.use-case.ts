import { Injectable } from '@nestjs/common';
import { type CursorPage, type CursorRequest, Principal } from '#core';
import { ArticleLists } from './article-lists.js';
import type { ArticleRecord } from './article-read.repository.js';

/** Published articles as an anonymous reader sees them (HTML, live content), for a public help center front end. */
@Injectable()
export class ListPublishedArticlesUseCase {
  constructor(private readonly lists: ArticleLists) {}

  execute(request: CursorRequest & { collectionId?: string; sectionId?: string }): Promise<CursorPage<ArticleRecord>> {
    const { pageSize, startCursor, collectionId, sectionId } = request;
    return this.lists.cursor({ pageSize, startCursor, collectionId, sectionId, status: 'published', format: 'html' }, Principal.reader());
  }
}
