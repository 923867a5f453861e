import { Injectable } from '@nestjs/common';
import { type CursorPage, type OffsetPage, type Principal, ValidationError } from '#core';
import { type ArticleCursorRequest, ArticleLists, type ArticleOffsetRequest } from './article-lists.js';
import type { ArticleRecord } from './article-read.repository.js';

/** GET /articles: the cursor form's fields, or the earlier offset form's (limit/offset), never both. */
export type ListArticlesRequest = ArticleCursorRequest & Pick<ArticleOffsetRequest, 'limit' | 'offset'>;

export type ArticleList = { readonly form: 'cursor'; readonly page: CursorPage<ArticleRecord> } | { readonly form: 'offset'; readonly page: OffsetPage<ArticleRecord> };

/**
 * The articles the caller may list (drafts need content:write; trashed ones are never listed). With limit or
 * offset, the earlier offset form (every listable article, newest first); otherwise a cursor page, newest first
 * or oldest-updated first with updatedSince.
 */
@Injectable()
export class ListArticlesUseCase {
  constructor(private readonly lists: ArticleLists) {}

  async execute(request: ListArticlesRequest, principal: Principal): Promise<ArticleList> {
    const offsetForm = request.limit !== undefined || request.offset !== undefined;
    if (!offsetForm) return { form: 'cursor', page: await this.lists.cursor(request, principal) };
    if (request.pageSize !== undefined || request.startCursor !== undefined) {
      throw new ValidationError('Use limit/offset or page_size/start_cursor, not both', [
        { field: 'limit', message: 'limit/offset cannot be combined with page_size/start_cursor' },
      ]);
    }
    const { limit, offset, status, collectionId, format } = request;
    return { form: 'offset', page: await this.lists.offset({ limit, offset, status, collectionId, format }, principal) };
  }
}
