import { Injectable } from '@nestjs/common';
import { NotFoundError } from '#core';
import type { Article } from '../domain/article.js';
import { ArticleRepository } from './article.repository.js';

/** The article, row-locked until the transaction ends: every state change of one article takes turns. */
@Injectable()
export class GetLockedArticle {
  constructor(private readonly articles: ArticleRepository) {}

  async get(id: string): Promise<Article> {
    const article = await this.articles.findById(id, { forUpdate: true });
    if (!article) throw new NotFoundError('Article', id);
    return article;
  }
}
