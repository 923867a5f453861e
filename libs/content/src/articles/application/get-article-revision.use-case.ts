import { Injectable } from '@nestjs/common';
import type { Principal } from '#core';
import type { ArticleRevision } from '../domain/article.js';
import { ArticleRevisionAccess } from './article-revision-access.js';

/** One revision by its ID or version number (only one that was live, for keys that see published articles only). */
@Injectable()
export class GetArticleRevisionUseCase {
  constructor(private readonly access: ArticleRevisionAccess) {}

  async execute(articleId: string, ref: string, principal: Principal): Promise<ArticleRevision> {
    return this.access.revision(articleId, ref, await this.access.liveOnly(articleId, principal));
  }
}
