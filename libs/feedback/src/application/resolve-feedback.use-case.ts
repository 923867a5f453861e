import { Injectable } from '@nestjs/common';
import { Clock, EventOutbox, NotFoundError, UnitOfWork } from '#core';
import { feedbackView } from './feedback-views.js';
import { FeedbackRepository } from './feedback.repository.js';

/** Marks an entry resolved or unresolved; feedback.updated only when it changed. */
@Injectable()
export class ResolveFeedbackUseCase {
  constructor(
    private readonly entries: FeedbackRepository,
    private readonly outbox: EventOutbox,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, resolved: boolean): Promise<{ id: string; resolved: boolean }> {
    return this.unitOfWork.run(async () => {
      const entry = await this.entries.findForUpdate(id);
      if (!entry) throw new NotFoundError('Feedback', id);
      if (entry.resolved !== resolved) {
        const now = this.clock.now();
        await this.entries.setResolved(id, resolved, now);
        await this.outbox.record('feedback.updated', feedbackView({ ...entry, resolved, updatedAt: now }));
      }
      return { id, resolved };
    });
  }
}
