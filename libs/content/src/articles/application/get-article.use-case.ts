import { Injectable } from '@nestjs/common';
import { NotFoundError, type Principal } from '#core';
import { ArticleAccess } from './article-access.js';
import { type ArticleRecord, ArticleRepository, type ContentFormat, renderingOf } from './article.repository.js';

/** One article as the caller may see it (published only, without content:write or content:publish). */
@Injectable()
export class GetArticleUseCase {
  constructor(private readonly access: ArticleAccess) {}

  execute(id: string, format: ContentFormat, principal: Principal): Promise<ArticleRecord> {
    return this.access.record(id, format, principal);
  }
}

export interface DraftView {
  readonly id: string;
  readonly articleId: string;
  readonly title: string;
  readonly content: string | Record<string, unknown>;
  readonly baseRevisionId: string | null;
  readonly updatedAt: Date;
}

/** The article's open draft (404 when it has none). */
@Injectable()
export class GetArticleDraftUseCase {
  constructor(private readonly articles: ArticleRepository) {}

  async execute(id: string, format: ContentFormat): Promise<DraftView> {
    const draft = await this.articles.findDraft(id);
    if (!draft) throw new NotFoundError('Open draft of article', id);
    const revision = (await this.articles.findRevision(id, draft.revisionId))!;
    return { id: draft.id, articleId: id, title: revision.title, content: renderingOf(revision.content, format), baseRevisionId: draft.baseRevisionId, updatedAt: draft.updatedAt };
  }
}
