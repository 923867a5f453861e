import type { FeedbackEntry, HelpCenterUser } from '../domain/feedback.js';

// The JSON shapes as the API returns them (also the data of feedback.* events).

export function helpCenterUserView(u: HelpCenterUser) {
  return { id: u.id, name: u.name, email: u.email, createdAt: u.createdAt.toISOString(), updatedAt: u.updatedAt.toISOString() };
}

export function feedbackView(f: FeedbackEntry) {
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
