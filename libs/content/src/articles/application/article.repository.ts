import type { Article, ArticleDraft, ArticleRevision } from '../domain/article.js';

export interface FindOptions {
  /** Lock the article row until the transaction ends (every state change of one article takes turns). */
  readonly forUpdate?: boolean;
}

/**
 * Port: the article aggregate, as its use cases load, lock and save it: the article, its revisions and its open
 * draft. Saving also keeps what follows from the article's state in step, in the same transaction: its search
 * document (made from the live revision, none when not published) and which revisions were ever live. A slug
 * another article holds is a SlugTakenError, from `insert` and `save` alike.
 */
export abstract class ArticleRepository {
  abstract findById(id: string, options?: FindOptions): Promise<Article | null>;
  /** The article's version (bumped by every save; the API's ETag), or null when there is no such article. */
  abstract versionOf(id: string): Promise<number | null>;
  /** A new article (a draft: it has no search document until it is saved published). */
  abstract insert(article: Article): Promise<void>;
  abstract save(article: Article): Promise<void>;
  /** Whether another article of the helpdesk has the slug. */
  abstract slugExists(slug: string, exceptArticleId?: string): Promise<boolean>;
  /**
   * Serialises slug choices that could collide (same base: `title`, `title-2`…) until the transaction ends;
   * choices of other slugs go on in parallel.
   */
  abstract lockSlug(base: string): Promise<void>;
  abstract insertRevision(revision: ArticleRevision): Promise<void>;
  abstract findRevision(articleId: string, revisionId: string): Promise<ArticleRevision | null>;
  abstract findDraft(articleId: string): Promise<ArticleDraft | null>;
  /** Opens the draft, or points the open one at another revision. */
  abstract saveDraft(draft: ArticleDraft): Promise<void>;
  abstract deleteDraft(articleId: string): Promise<void>;
  /** Articles placed in the section, trashed ones included (a section holding any cannot be deleted). */
  abstract countInSection(sectionId: string): Promise<number>;
  /** Articles placed in the collection, trashed ones included (a collection holding any cannot be deleted). */
  abstract countInCollection(collectionId: string): Promise<number>;
}
