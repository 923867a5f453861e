import { Injectable } from '@nestjs/common';
import { NotFoundError, type Principal } from '#core';
import { GetArticleUseCase } from '#content';
import { FeedbackRepository, type FeedbackSummary } from './feedback.repository.js';

/**
 * Positive, negative and unresolved counts of an article's feedback, for an article the caller may see
 * (GET /articles/{id}'s rule: no one learns from a 200 that a draft exists); 404 otherwise, and for a trashed
 * article (its feedback is kept, not summarised).
 */
@Injectable()
export class GetFeedbackSummaryUseCase {
  constructor(
    private readonly entries: FeedbackRepository,
    private readonly articles: GetArticleUseCase,
  ) {}

  async execute(articleId: string, principal: Principal): Promise<FeedbackSummary> {
    const article = await this.articles.execute(articleId, 'json', principal);
    if (article.props.status === 'trashed') throw new NotFoundError('Article', articleId);
    return this.entries.summary(articleId);
  }
}
