import { Injectable } from '@nestjs/common';
import { HelpCenterReadRepository } from './help-center-read.repository.js';
import { articleLink, siteContext } from './help-center-site.js';
import type { SearchPage } from './help-center-views.js';

export interface HelpCenterSearchRequest {
  readonly query: string;
  readonly language?: string;
  /** 1-based; anything else is page 1. */
  readonly page?: number;
}

export const SEARCH_PAGE_SIZE = 10;
/** Pages past this one are empty (deep offsets rank every match again for nothing a reader pages to). */
export const SEARCH_MAX_PAGE = 100;
const MAX_QUERY_CHARS = 500;

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * The public search: the API's full-text search (PostgreSQL websearch syntax, ranked, the same search documents)
 * over live articles in the asked language (the default language's text, or the published translations into
 * another), 10 a page by page number, each with a snippet whose text is escaped and whose matches are in <mark>.
 * An empty query finds nothing (no error); a query longer than 500 characters is cut.
 */
@Injectable()
export class SearchHelpCenterUseCase {
  constructor(private readonly reads: HelpCenterReadRepository) {}

  async execute(request: HelpCenterSearchRequest): Promise<SearchPage> {
    const context = siteContext(await this.reads.site(), request.language);
    const query = request.query.replace(/\s+/g, ' ').trim().slice(0, MAX_QUERY_CHARS);
    const page = Number.isInteger(request.page) && request.page! >= 1 ? request.page! : 1;
    const base = { branding: context.branding, locale: context.locale, lastModified: context.lastModified, query, page };
    if (query.length === 0 || page > SEARCH_MAX_PAGE) return { ...base, results: [], hasNextPage: false };
    const hits = await this.reads.search(query, context.translation, (page - 1) * SEARCH_PAGE_SIZE, SEARCH_PAGE_SIZE + 1);
    return {
      ...base,
      results: hits.slice(0, SEARCH_PAGE_SIZE).map((hit) => ({
        ...articleLink(hit, context),
        snippet: escapeHtml(hit.snippet).replaceAll('\u0001', '<mark>').replaceAll('\u0002', '</mark>'),
      })),
      hasNextPage: hits.length > SEARCH_PAGE_SIZE && page < SEARCH_MAX_PAGE,
    };
  }
}
