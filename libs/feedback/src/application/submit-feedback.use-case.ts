import { Injectable } from '@nestjs/common';
import { Clock, EventOutbox, newId, UnitOfWork, ValidationError } from '#core';
import { GetHelpdeskUseCase, GetPublishedArticleUseCase } from '#content';
import { type FeedbackType, MAX_FEEDBACK_LENGTH, normaliseEmail } from '../domain/feedback.js';
import { type FeedbackReceipt, feedbackView } from './feedback-views.js';
import { FeedbackRepository } from './feedback.repository.js';

/**
 * A reader's feedback on a published article (no key; 404 for any other article), stored with the article's title
 * at that moment and announced (feedback.created, with the matched help center user). The reader gets the receipt
 * only.
 */
@Injectable()
export class SubmitFeedbackUseCase {
  constructor(
    private readonly entries: FeedbackRepository,
    private readonly articles: GetPublishedArticleUseCase,
    private readonly helpdesk: GetHelpdeskUseCase,
    private readonly outbox: EventOutbox,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(articleId: string, input: { type: FeedbackType; feedback: string; email?: string | null }): Promise<FeedbackReceipt> {
    const text = input.feedback.trim();
    if (text.length === 0 || text.length > MAX_FEEDBACK_LENGTH) throw ValidationError.field('feedback', `feedback must be 1 to ${MAX_FEEDBACK_LENGTH} characters`);
    const email = input.email ? normaliseEmail(input.email) : null;
    const article = await this.articles.execute(articleId);
    const helpdeskId = (await this.helpdesk.execute()).id;
    return this.unitOfWork.run(async () => {
      const now = this.clock.now();
      const entry = await this.entries.insert({ id: newId('fb'), helpdeskId, articleId, articleTitle: article.title, type: input.type, feedback: text, email, resolved: false, createdAt: now, updatedAt: now });
      await this.outbox.record('feedback.created', feedbackView(entry));
      return { id: entry.id, createdAt: entry.createdAt.toISOString() };
    });
  }
}
