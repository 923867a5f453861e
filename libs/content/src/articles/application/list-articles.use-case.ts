import { Injectable } from '@nestjs/common';
import {
  checkOffsetRequest,
  type CursorPage,
  type CursorRequest,
  InsufficientScopeError,
  type OffsetPage,
  offsetPage,
  type OffsetRequest,
  Paginator,
  type Principal,
} from '#core';
import type { ArticleStatus } from '../domain/article.js';
import { type ArticleFilter, type ArticleRecord, ArticleRepository, type ContentFormat } from './article.repository.js';

export const ARTICLES_LIST = 'articles';
export type ListStatus = 'published' | 'draft' | 'all';

export interface ListArticlesRequest extends CursorRequest {
  readonly status?: ListStatus;
  readonly collectionId?: string;
  readonly sectionId?: string;
  /** Only articles updated at or after; the order becomes oldest-updated first. Ignored with a cursor. */
  readonly updatedSince?: Date;
  readonly format?: ContentFormat;
}

function statusesOf(status: ListStatus, principal: Principal): ArticleStatus[] {
  // Listing drafts needs content:write (source §5.6); trashed articles are never listed.
  if (status !== 'published' && !principal.has('content:write')) throw new InsufficientScopeError('content:write');
  return status === 'all' ? ['draft', 'published'] : [status];
}

/** GET /articles, cursor form: newest first, or oldest-updated first with updated_since. */
@Injectable()
export class ListArticlesUseCase {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly paginator: Paginator,
  ) {}

  async execute(request: ListArticlesRequest, principal: Principal): Promise<CursorPage<ArticleRecord>> {
    const statuses = statusesOf(request.status ?? 'published', principal);
    const byUpdate = request.updatedSince !== undefined && request.startCursor === undefined;
    const query = this.paginator.query(ARTICLES_LIST, request, byUpdate ? 'updated_asc' : 'created_desc');
    const filter: ArticleFilter = {
      statuses,
      collectionId: request.collectionId,
      sectionId: request.sectionId,
      updatedSince: request.startCursor === undefined ? request.updatedSince : undefined,
    };
    const slice = await this.articles.list(query, filter, request.format ?? 'html');
    const sortValue = (r: ArticleRecord) => (query.mode === 'updated_asc' ? r.props.updatedAt : r.props.createdAt).toISOString();
    return this.paginator.page(ARTICLES_LIST, query, slice, (r) => ({ value: sortValue(r), id: r.props.id }), (r) => r);
  }
}

/** GET /articles, the earlier offset form (limit/offset): every listable article, newest first. */
@Injectable()
export class ListArticlesOffsetUseCase {
  constructor(private readonly articles: ArticleRepository) {}

  async execute(request: OffsetRequest & { status?: ListStatus; collectionId?: string; format?: ContentFormat }, principal: Principal): Promise<OffsetPage<ArticleRecord>> {
    const page = checkOffsetRequest(request);
    // The earlier form "lists all articles": drafts too for keys that may see them, published ones otherwise.
    const statuses = statusesOf(request.status ?? (principal.has('content:write') ? 'all' : 'published'), principal);
    const { records, total } = await this.articles.listOffset({ statuses, collectionId: request.collectionId }, request.format ?? 'html', page.limit, page.offset);
    return offsetPage(records, total, page);
  }
}
