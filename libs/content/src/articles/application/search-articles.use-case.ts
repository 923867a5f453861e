import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type CursorPage, type CursorRequest, type KeysetQuery, Paginator, ValidationError } from '#core';
import { CurrentHelpdesk } from '../../helpdesk/application/current-helpdesk.js';
import { ArticleReadRepository, type SearchHit } from './article-read.repository.js';

export interface SearchRequest extends CursorRequest {
  readonly query: string;
  readonly locale?: string;
}

export interface SearchResult extends Omit<SearchHit, 'snippet'> {
  /** HTML: the text escaped, matched terms in <mark>. */
  readonly snippet: string;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * Full-text search over published articles (or a locale's published translations) with PostgreSQL's
 * websearch syntax, ranked, with a highlighted snippet. Cursors belong to one query: another query's cursor is
 * invalid_cursor.
 */
@Injectable()
export class SearchArticlesUseCase {
  constructor(
    private readonly views: ArticleReadRepository,
    private readonly helpdesk: CurrentHelpdesk,
    private readonly paginator: Paginator,
  ) {}

  async execute(request: SearchRequest): Promise<CursorPage<SearchResult>> {
    const query = request.query.trim();
    if (query.length === 0 || query.length > 500) throw ValidationError.field('query', 'query must be 1 to 500 characters');
    const helpdesk = await this.helpdesk.get();
    const locale = request.locale && request.locale !== helpdesk.defaultLanguage ? request.locale : null;
    if (locale !== null) helpdesk.assertTranslationLanguage(locale);
    const list = `search:${createHash('sha256').update(`${locale ?? ''}\n${query}`).digest('base64url').slice(0, 16)}`;
    const read = (page: KeysetQuery) => this.views.search({ query, locale, language: locale ?? helpdesk.defaultLanguage }, page);
    return this.paginator.list(list, request, 'rank_desc', read, (hit) => ({ value: hit.rank, id: hit.articleId }), (hit) => ({
      ...hit,
      snippet: escapeHtml(hit.snippet).replaceAll('\u0001', '<mark>').replaceAll('\u0002', '</mark>'),
    }));
  }
}
