import type { KeysetQuery, KeysetSlice } from '#core';
import type { Article, ArticleContent, ArticleDraft, ArticleProps, ArticleRevision, ArticleStatus } from '../domain/article.js';

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
}

export interface ArticleFilter {
  readonly statuses: readonly ArticleStatus[];
  readonly collectionId?: string;
  readonly sectionId?: string;
  readonly updatedSince?: Date;
}

export interface FindOptions {
  /** Lock the article row until the transaction ends (every state change of one article takes turns). */
  readonly forUpdate?: boolean;
}

/** Port: articles, their revisions and drafts. */
export abstract class ArticleRepository {
  abstract findById(id: string, options?: FindOptions): Promise<Article | null>;
  abstract findRecord(id: string, format: ContentFormat): Promise<ArticleRecord | null>;
  /** Keyset page of records (created_desc or updated_asc). */
  abstract list(query: KeysetQuery, filter: ArticleFilter, format: ContentFormat): Promise<KeysetSlice<ArticleRecord>>;
  abstract listOffset(filter: ArticleFilter, format: ContentFormat, limit: number, offset: number): Promise<{ records: ArticleRecord[]; total: number }>;
  abstract insert(article: Article): Promise<void>;
  abstract update(article: Article): Promise<void>;
  /** Whether another article of the helpdesk has the slug. */
  abstract slugExists(slug: string, exceptArticleId?: string): Promise<boolean>;
  /**
   * Serialises slug choices that could collide (same base: `title`, `title-2`…) until the transaction ends;
   * choices of other slugs go on in parallel.
   */
  abstract lockSlug(base: string): Promise<void>;
  abstract insertRevision(revision: ArticleRevision): Promise<void>;
  abstract findRevision(articleId: string, revisionId: string): Promise<ArticleRevision | null>;
  abstract findRevisionByVersion(articleId: string, version: number): Promise<ArticleRevision | null>;
  /** Keyset page of revisions, newest first; `liveOnly` keeps those that were live at some time. */
  abstract listRevisions(articleId: string, query: KeysetQuery, liveOnly?: boolean): Promise<KeysetSlice<ArticleRevision>>;
  abstract findDraft(articleId: string): Promise<ArticleDraft | null>;
  abstract saveDraft(draft: ArticleDraft): Promise<void>;
  abstract deleteDraft(articleId: string): Promise<void>;
  /** Recomputes the search vector from the live revision (null when not published). */
  abstract refreshSearch(articleId: string): Promise<void>;
  abstract countInSection(sectionId: string): Promise<number>;
  abstract countInCollection(collectionId: string): Promise<number>;
}
