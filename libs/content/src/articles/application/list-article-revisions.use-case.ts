import { Injectable } from '@nestjs/common';
import { type CursorPage, type CursorRequest, type KeysetQuery, Paginator, type Principal } from '#core';
import type { ArticleRevision } from '../domain/article.js';
import { ArticleReadRepository } from './article-read.repository.js';
import { ArticleRevisionAccess } from './article-revision-access.js';

const REVISIONS_LIST = 'article-revisions';

/** The article's revisions, newest first (only those that were live, for keys that see published articles only). */
@Injectable()
export class ListArticleRevisionsUseCase {
  constructor(
    private readonly access: ArticleRevisionAccess,
    private readonly views: ArticleReadRepository,
    private readonly paginator: Paginator,
  ) {}

  async execute(articleId: string, request: CursorRequest, principal: Principal): Promise<CursorPage<ArticleRevision>> {
    const liveOnly = await this.access.liveOnly(articleId, principal);
    const read = (query: KeysetQuery) => this.views.listRevisions(articleId, query, liveOnly);
    return this.paginator.list(REVISIONS_LIST, request, 'created_desc', read, (r) => ({ value: r.createdAt.toISOString(), id: r.id }), (r) => r);
  }
}
