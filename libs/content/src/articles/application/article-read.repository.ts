import type { KeysetQuery, KeysetSlice } from '#core';
import type { ArticleContent, ArticleProps, ArticleRevision, ArticleStatus } from '../domain/article.js';

export const CONTENT_FORMATS = ['html', 'markdown', 'json'] as const;
export type ContentFormat = (typeof CONTENT_FORMATS)[number];

/** The stored rendering a format asks for (no conversion: all three are rendered at write time). */
export function renderingOf(content: ArticleContent, format: ContentFormat): string | Record<string, unknown> {
  return format === 'json' ? content.json : format === 'markdown' ? content.markdown : content.html;
}

/** An article as reads show it: its fields, the title and body of its shown revision in one format, its open draft. */
export interface ArticleRecord {
  readonly props: Readonly<ArticleProps>;
  readonly title: string;
  readonly content: string | Record<string, unknown> | null;
  readonly draftId: string | null;
  /** Changes with every write of the article: its ETag. */
  readonly rowVersion: number;
  /** Set when a translation was asked for: the language of `title` and `content`. */
  readonly locale?: string;
}

/** An article's open draft as reads show it: the title and body of the revision it holds, in one format. */
export interface DraftView {
  readonly id: string;
  readonly articleId: string;
  readonly title: string;
  readonly content: string | Record<string, unknown>;
  readonly baseRevisionId: string | null;
  readonly updatedAt: Date;
}

export interface ArticleFilter {
  readonly statuses: readonly ArticleStatus[];
  readonly collectionId?: string;
  readonly sectionId?: string;
  readonly updatedSince?: Date;
}

/** A revision named by its ID or by its version number. */
export type RevisionRef = { readonly id: string } | { readonly version: number };

export interface SearchHit {
  readonly articleId: string;
  readonly locale: string;
  readonly title: string;
  readonly slug: string;
  readonly sectionId: string;
  readonly collectionId: string | null;
  readonly publishedAt: Date;
  readonly rank: number;
  /** Plain text with matched terms between \u0001 and \u0002. */
  readonly snippet: string;
}

/**
 * Port: the read model of articles: one article or a list as reads show them, open drafts, the revision history,
 * full-text search and translation coverage. Nothing here is loaded to be changed (see ArticleRepository).
 */
export abstract class ArticleReadRepository {
  abstract findRecord(id: string, format: ContentFormat): Promise<ArticleRecord | null>;
  /** Keyset page of records (created_desc or updated_asc). */
  abstract list(query: KeysetQuery, filter: ArticleFilter, format: ContentFormat): Promise<KeysetSlice<ArticleRecord>>;
  /** Offset page of records, newest first, with the number of all that match. */
  abstract listOffset(filter: ArticleFilter, format: ContentFormat, limit: number, offset: number): Promise<{ records: ArticleRecord[]; total: number }>;
  abstract findDraft(articleId: string, format: ContentFormat): Promise<DraftView | null>;
  abstract findRevision(articleId: string, ref: RevisionRef): Promise<ArticleRevision | null>;
  /** Keyset page of revisions, newest first; `liveOnly` keeps those that were live at some time. */
  abstract listRevisions(articleId: string, query: KeysetQuery, liveOnly: boolean): Promise<KeysetSlice<ArticleRevision>>;
  /**
   * Published articles (locale null: the default language, `language`) or published translations (`locale`)
   * matching `query`, ranked.
   */
  abstract search(input: { query: string; locale: string | null; language: string }, page: KeysetQuery): Promise<KeysetSlice<SearchHit>>;
  /** For each locale, the published articles that have no translation row in it. */
  abstract missingTranslations(locales: readonly string[]): Promise<Record<string, string[]>>;
}
