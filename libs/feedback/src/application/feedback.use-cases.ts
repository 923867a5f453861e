import { Injectable } from '@nestjs/common';
import { Clock, type CursorPage, type CursorRequest, EventOutbox, newId, NotFoundError, Paginator, Principal, UnitOfWork, ValidationError } from '#core';
import { GetArticleUseCase, GetHelpdeskUseCase, GetPublishedArticleUseCase } from '#content';
import { type FeedbackEntry, type FeedbackType, type HelpCenterUser, MAX_FEEDBACK_LENGTH, normaliseEmail } from '../domain/feedback.js';
import { type FeedbackFilter, FeedbackRepository, type FeedbackSummary, HelpCenterUserRepository } from './feedback.repository.js';
import { feedbackView } from './feedback-views.js';

export const USERS_LIST = 'help_center_users';
export const FEEDBACK_LIST = 'feedback';

@Injectable()
export class CreateHelpCenterUserUseCase {
  constructor(
    private readonly users: HelpCenterUserRepository,
    private readonly helpdesk: GetHelpdeskUseCase,
    private readonly clock: Clock,
  ) {}

  async execute(command: { email: string; name?: string | null }): Promise<HelpCenterUser> {
    const now = this.clock.now();
    const user: HelpCenterUser = {
      id: newId('hcusr'),
      helpdeskId: (await this.helpdesk.execute()).id,
      email: normaliseEmail(command.email),
      name: command.name?.trim() || null,
      createdAt: now,
      updatedAt: now,
    };
    await this.users.insert(user);
    return user;
  }
}

@Injectable()
export class ListHelpCenterUsersUseCase {
  constructor(
    private readonly users: HelpCenterUserRepository,
    private readonly paginator: Paginator,
  ) {}

  async execute(request: CursorRequest): Promise<CursorPage<HelpCenterUser>> {
    const query = this.paginator.query(USERS_LIST, request, 'created_desc');
    const slice = await this.users.list(query);
    return this.paginator.page(USERS_LIST, query, slice, (u) => ({ value: u.createdAt.toISOString(), id: u.id }), (u) => u);
  }
}

@Injectable()
export class GetHelpCenterUserUseCase {
  constructor(private readonly users: HelpCenterUserRepository) {}

  async execute(id: string): Promise<HelpCenterUser> {
    const user = await this.users.find(id);
    if (!user) throw new NotFoundError('Help center user', id);
    return user;
  }
}

@Injectable()
export class UpdateHelpCenterUserUseCase {
  constructor(
    private readonly users: HelpCenterUserRepository,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, command: { email?: string; name?: string | null }): Promise<HelpCenterUser> {
    const user = await this.users.find(id);
    if (!user) throw new NotFoundError('Help center user', id);
    const updated: HelpCenterUser = {
      ...user,
      email: command.email !== undefined ? normaliseEmail(command.email) : user.email,
      name: command.name !== undefined ? command.name?.trim() || null : user.name,
      updatedAt: this.clock.now(),
    };
    await this.users.update(updated);
    return updated;
  }
}

export interface SubmitFeedbackCommand {
  readonly type: FeedbackType;
  readonly feedback: string;
  readonly email?: string | null;
}

/** A reader's feedback on a published article (no key): stored with the article's title at that moment. */
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

  async execute(articleId: string, command: SubmitFeedbackCommand): Promise<FeedbackEntry> {
    const text = command.feedback.trim();
    if (text.length === 0 || text.length > MAX_FEEDBACK_LENGTH) throw ValidationError.field('feedback', `feedback must be 1 to ${MAX_FEEDBACK_LENGTH} characters`);
    const email = command.email ? normaliseEmail(command.email) : null;
    const article = await this.articles.execute(articleId);
    const helpdeskId = (await this.helpdesk.execute()).id;
    return this.unitOfWork.run(async () => {
      const now = this.clock.now();
      const id = newId('fb');
      await this.entries.insert({ id, helpdeskId, articleId, articleTitle: article.title, type: command.type, feedback: text, email, resolved: false, createdAt: now, updatedAt: now });
      const entry = (await this.entries.find(id))!;
      await this.outbox.record('feedback.created', feedbackView(entry));
      return entry;
    });
  }
}

@Injectable()
export class ListFeedbackUseCase {
  constructor(
    private readonly entries: FeedbackRepository,
    private readonly paginator: Paginator,
  ) {}

  async execute(request: CursorRequest & FeedbackFilter): Promise<CursorPage<FeedbackEntry>> {
    const list = `${FEEDBACK_LIST}:${request.articleId ?? ''}:${request.type ?? ''}:${request.resolved ?? ''}`;
    const query = this.paginator.query(list, request, 'created_desc');
    const slice = await this.entries.list(query, { articleId: request.articleId, type: request.type, resolved: request.resolved });
    return this.paginator.page(list, query, slice, (f) => ({ value: f.createdAt.toISOString(), id: f.id }), (f) => f);
  }
}

/** Marks an entry resolved or unresolved; the event only when it changed. */
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
      const entry = await this.entries.find(id, { forUpdate: true });
      if (!entry) throw new NotFoundError('Feedback', id);
      if (entry.resolved !== resolved) {
        await this.entries.setResolved(id, resolved, this.clock.now());
        await this.outbox.record('feedback.updated', feedbackView((await this.entries.find(id))!));
      }
      return { id, resolved };
    });
  }
}

/** Positive, negative and unresolved counts of an article's feedback (404 for an unknown article). */
@Injectable()
export class FeedbackSummaryUseCase {
  constructor(
    private readonly entries: FeedbackRepository,
    private readonly articles: GetArticleUseCase,
  ) {}

  /** Of an article the caller may see (GET /articles/{id}'s rule): no one learns from a 200 that a draft exists. */
  async execute(articleId: string, principal: Principal): Promise<FeedbackSummary> {
    // Every visible article but trashed ones (their feedback is kept, not summarised).
    const article = await this.articles.execute(articleId, 'json', principal);
    if (article.props.status === 'trashed') throw new NotFoundError('Article', articleId);
    return this.entries.summary(articleId);
  }
}
