import { Injectable } from '@nestjs/common';
import { type CursorPage, type CursorRequest, Paginator } from '#core';
import { feedbackView, type FeedbackView } from './feedback-views.js';
import { type FeedbackFilter, FeedbackRepository } from './feedback.repository.js';

const FEEDBACK_LIST = 'feedback';

/** Newest first, filtered by article, type and resolved (a cursor belongs to its filters). */
@Injectable()
export class ListFeedbackUseCase {
  constructor(
    private readonly entries: FeedbackRepository,
    private readonly paginator: Paginator,
  ) {}

  async execute(request: CursorRequest & FeedbackFilter): Promise<CursorPage<FeedbackView>> {
    const list = `${FEEDBACK_LIST}:${request.articleId ?? ''}:${request.type ?? ''}:${request.resolved ?? ''}`;
    const filter = { articleId: request.articleId, type: request.type, resolved: request.resolved };
    return this.paginator.list(list, request, 'created_desc', (query) => this.entries.list(query, filter), (f) => ({ value: f.createdAt.toISOString(), id: f.id }), feedbackView);
  }
}
