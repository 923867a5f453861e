import type { ArticleTranslation } from '../domain/article-translation.js';
import type { ArticleContent } from '../domain/article.js';

/** Port: an article's translations, each a draft and, once published, its live copy (searchable in its language). */
export abstract class ArticleTranslationRepository {
  abstract find(articleId: string, locale: string): Promise<ArticleTranslation | null>;
  abstract list(articleId: string): Promise<ArticleTranslation[]>;
  /** Creates or replaces the draft of a translation; `created` tells which. */
  abstract putDraft(input: { id: string; articleId: string; locale: string; title: string; content: ArticleContent; at: Date }): Promise<{ created: boolean }>;
  /** Copies the draft to the live copy and keeps its search document in step (in its language). */
  abstract publish(articleId: string, locale: string, at: Date): Promise<void>;
  /** Flags translations last written before `at` (the source article was just published). */
  abstract markOutdated(articleId: string, at: Date): Promise<void>;
}
