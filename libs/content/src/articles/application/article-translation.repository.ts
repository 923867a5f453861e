import type { KeysetQuery, KeysetSlice } from '#core';
import type { ArticleTranslation } from '../domain/article-translation.js';
import type { ArticleContent } from '../domain/article.js';

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

/** Port: article translations, coverage per locale and full-text search. */
export abstract class ArticleTranslationRepository {
  abstract find(articleId: string, locale: string): Promise<ArticleTranslation | null>;
  abstract list(articleId: string): Promise<ArticleTranslation[]>;
  /** Creates or replaces the draft of a translation; `created` tells which. */
  abstract putDraft(input: { id: string; articleId: string; locale: string; title: string; content: ArticleContent; at: Date }): Promise<{ created: boolean }>;
  /** Copies the draft to the live copy and indexes it for search in its language. */
  abstract publish(articleId: string, locale: string, at: Date): Promise<void>;
  /** Flags translations last written before `at` (the source article was just published). */
  abstract markOutdated(articleId: string, at: Date): Promise<void>;
  /** For each locale, the published articles that have no translation row in it. */
  abstract missing(locales: readonly string[]): Promise<Record<string, string[]>>;
  /**
   * Published articles (locale null: the default language, `language`) or published translations (`locale`)
   * matching `query`, ranked.
   */
  abstract search(input: { query: string; locale: string | null; language: string }, page: KeysetQuery): Promise<KeysetSlice<SearchHit>>;
}
