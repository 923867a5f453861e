import type { KeysetQuery, KeysetSlice } from '#core';
import type { FeedbackEntry, FeedbackType, HelpCenterUser } from '../domain/feedback.js';

export interface FeedbackFilter {
  readonly articleId?: string;
  readonly type?: FeedbackType;
  readonly resolved?: boolean;
}

export interface FeedbackSummary {
  readonly positive: number;
  readonly negative: number;
  readonly unresolved: number;
}

export abstract class HelpCenterUserRepository {
  /** Throws ConflictError when the email is taken in the helpdesk. */
  abstract insert(user: HelpCenterUser): Promise<void>;
  abstract update(user: HelpCenterUser): Promise<void>;
  abstract find(id: string): Promise<HelpCenterUser | null>;
  /** Newest first. */
  abstract list(query: KeysetQuery): Promise<KeysetSlice<HelpCenterUser>>;
}

export abstract class FeedbackRepository {
  abstract insert(entry: Omit<FeedbackEntry, 'user'> & { helpdeskId: string }): Promise<void>;
  abstract find(id: string, options?: { forUpdate?: boolean }): Promise<FeedbackEntry | null>;
  /** Newest first. */
  abstract list(query: KeysetQuery, filter: FeedbackFilter): Promise<KeysetSlice<FeedbackEntry>>;
  abstract setResolved(id: string, resolved: boolean, at: Date): Promise<void>;
  abstract summary(articleId: string): Promise<FeedbackSummary>;
}
