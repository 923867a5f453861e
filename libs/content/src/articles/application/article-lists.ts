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
import { type ArticleFilter, ArticleReadRepository, type ArticleRecord, type ContentFormat } from './article-read.repository.js';

const ARTICLES_LIST = 'articles';
export type ListStatus = 'published' | 'draft' | 'all';

export interface ArticleCursorRequest extends CursorRequest {
  readonly status?: ListStatus;
  readonly collectionId?: string;
  readonly sectionId?: string;
  /** Only articles updated at or after; the order becomes oldest-updated first. Ignored with a cursor. */
  readonly updatedSince?: Date;
  readonly format?: ContentFormat;
}

export interface ArticleOffsetRequest extends OffsetRequest {
  readonly status?: ListStatus;
  readonly collectionId?: string;
  readonly format?: ContentFormat;
}

function statusesOf(status: ListStatus, principal: Principal): ArticleStatus[] {
  // Listing drafts needs content:write (source §5.6); trashed articles are never listed.
  if (status !== 'published' && !principal.has('content:write')) throw new InsufficientScopeError('content:write');
  return status === 'all' ? ['draft', 'published'] : [status];
}

/** The two forms of article lists, for the use cases that list articles (GET /articles, the public list). */
@Injectable()
export class ArticleLists {
  constructor(
    private readonly views: ArticleReadRepository,
    private readonly paginator: Paginator,
  ) {}

  /** Cursor form: newest first, or oldest-updated first with updatedSince. */
  async cursor(request: ArticleCursorRequest, principal: Principal): Promise<CursorPage<ArticleRecord>> {
    const statuses = statusesOf(request.status ?? 'published', principal);
    const byUpdate = request.updatedSince !== undefined && request.startCursor === undefined;
    const query = this.paginator.query(ARTICLES_LIST, request, byUpdate ? 'updated_asc' : 'created_desc');
    const filter: ArticleFilter = {
      statuses,
      collectionId: request.collectionId,
      sectionId: request.sectionId,
      updatedSince: request.startCursor === undefined ? request.updatedSince : undefined,
    };
    const slice = await this.views.list(query, filter, request.format ?? 'html');
    const sortValue = (r: ArticleRecord) => (query.mode === 'updated_asc' ? r.props.updatedAt : r.props.createdAt).toISOString();
    return this.paginator.page(ARTICLES_LIST, query, slice, (r) => ({ value: sortValue(r), id: r.props.id }), (r) => r);
  }

  /** The earlier offset form (limit/offset): every listable article, newest first. */
  async offset(request: ArticleOffsetRequest, principal: Principal): Promise<OffsetPage<ArticleRecord>> {
    const page = checkOffsetRequest(request);
    // The earlier form "lists all articles": drafts too for keys that may see them, published ones otherwise.
    const statuses = statusesOf(request.status ?? (principal.has('content:write') ? 'all' : 'published'), principal);
    const { records, total } = await this.views.listOffset({ statuses, collectionId: request.collectionId }, request.format ?? 'html', page.limit, page.offset);
    return offsetPage(records, total, page);
  }
}
