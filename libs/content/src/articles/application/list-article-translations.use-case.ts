import { Injectable } from '@nestjs/common';
import { NotFoundError, type Principal } from '#core';
import type { ArticleTranslation } from '../domain/article-translation.js';
import { seesUnpublished } from './article-access.js';
import { ArticleTranslationRepository } from './article-translation.repository.js';
import { ArticleRepository } from './article.repository.js';

/** An article's translations (keys without content:write only see those of published articles). */
@Injectable()
export class ListArticleTranslationsUseCase {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly translations: ArticleTranslationRepository,
  ) {}

  async execute(articleId: string, principal: Principal): Promise<ArticleTranslation[]> {
    const article = await this.articles.findById(articleId);
    if (!article || (article.status !== 'published' && !seesUnpublished(principal))) throw new NotFoundError('Article', articleId);
    const all = await this.translations.list(articleId);
    return seesUnpublished(principal) ? all : all.filter((t) => t.published !== null);
  }
}
