import type { FeedbackEntry, HelpCenterUser } from '../domain/feedback.js';

// The JSON shapes as the API returns them (also the data of feedback.* events).

export interface HelpCenterUserView {
  readonly id: string;
  readonly name: string | null;
  readonly email: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** An entry as stored, but its time as an ISO string and without updatedAt. */
export interface FeedbackView extends Pick<FeedbackEntry, 'id' | 'articleId' | 'articleTitle' | 'type' | 'feedback' | 'email' | 'resolved' | 'user'> {
  readonly createdAt: string;
}

/**
 * What a reader who left feedback without a key gets back: the receipt, nothing else. The stored entry (its
 * matched help center user above all) is for keys with analytics:read; echoing it would turn the form into an
 * email lookup.
 */
export interface FeedbackReceipt {
  readonly id: string;
  readonly createdAt: string;
}

export function helpCenterUserView(u: HelpCenterUser): HelpCenterUserView {
  return { id: u.id, name: u.name, email: u.email, createdAt: u.createdAt.toISOString(), updatedAt: u.updatedAt.toISOString() };
}

export function feedbackView(f: FeedbackEntry): FeedbackView {
  return {
    id: f.id,
    articleId: f.articleId,
    articleTitle: f.articleTitle,
    type: f.type,
    feedback: f.feedback,
    email: f.email,
    resolved: f.resolved,
    createdAt: f.createdAt.toISOString(),
    user: f.user ? { id: f.user.id, name: f.user.name, email: f.user.email } : null,
  };
}
