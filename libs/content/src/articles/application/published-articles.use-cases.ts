import { Injectable } from '@nestjs/common';
import { type CursorPage, type CursorRequest, Principal } from '#core';
import type { ArticleRecord } from './article.repository.js';
import { GetArticleUseCase } from './get-article.use-case.js';
import { ListArticlesUseCase } from './list-articles.use-case.js';

/** Published articles as an anonymous reader sees them (HTML, live content), for a public help center front end. */
@Injectable()
export class ListPublishedArticlesUseCase {
  constructor(private readonly articles: ListArticlesUseCase) {}

  execute(request: CursorRequest & { collectionId?: string; sectionId?: string }): Promise<CursorPage<ArticleRecord>> {
    return this.articles.execute({ ...request, status: 'published', format: 'html' }, Principal.reader());
  }
}

/** One published article as an anonymous reader sees it; 404 for drafts, trashed and unknown articles. */
@Injectable()
export class GetPublishedArticleUseCase {
  constructor(private readonly articles: GetArticleUseCase) {}

  execute(id: string): Promise<ArticleRecord> {
    return this.articles.execute(id, 'html', Principal.reader());
  }
}
