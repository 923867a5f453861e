import { DomainError } from '#core/domain';

/** Another article of the helpdesk has the slug (409 slug_taken). */
export class SlugTakenError extends DomainError {
  constructor(readonly slug: string) {
    super('slug_taken', `The slug ${slug} is already used by another article`);
  }
}

/** The article is not at the version the writer expected: it changed since the writer read it (412 precondition_failed). */
export class ArticleVersionMismatchError extends DomainError {
  constructor(readonly articleId: string) {
    super('precondition_failed', "If-Match does not match the article's current ETag");
  }
}
