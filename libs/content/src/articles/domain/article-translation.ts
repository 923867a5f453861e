import type { ArticleContent } from './article.js';

/**
 * An article in another language: a draft (title and body being written) and, once published, its live copy.
 * `outdated` is set when the source article is published after the translation was last written.
 */
export interface ArticleTranslation {
  readonly id: string;
  readonly articleId: string;
  readonly locale: string;
  readonly title: string;
  readonly content: ArticleContent;
  readonly published: { readonly title: string; readonly content: ArticleContent } | null;
  readonly publishedAt: Date | null;
  readonly outdated: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

