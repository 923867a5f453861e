import type { KeysetQuery, KeysetSlice } from '#core';
import type { FeedbackEntry, FeedbackType } from '../domain/feedback.js';

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

/** Feedback entries; each is read with the help center user of its helpdesk that has its email, if any. */
export abstract class FeedbackRepository {
  /** The entry as stored, with its matched user. */
  abstract insert(entry: Omit<FeedbackEntry, 'user'> & { helpdeskId: string }): Promise<FeedbackEntry>;
  /** The entry, its row locked until the end of the current transaction. */
  abstract findForUpdate(id: string): Promise<FeedbackEntry | null>;
  /** Newest first. */
  abstract list(query: KeysetQuery, filter: FeedbackFilter): Promise<KeysetSlice<FeedbackEntry>>;
  abstract setResolved(id: string, resolved: boolean, at: Date): Promise<void>;
  abstract summary(articleId: string): Promise<FeedbackSummary>;
}
