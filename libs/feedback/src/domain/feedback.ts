import { ConflictError, ValidationError } from '#core/domain';

export const FEEDBACK_TYPES = ['positive', 'negative'] as const;
export type FeedbackType = (typeof FEEDBACK_TYPES)[number];
export const MAX_FEEDBACK_LENGTH = 5000;

export interface HelpCenterUser {
  readonly id: string;
  readonly helpdeskId: string;
  readonly email: string;
  readonly name: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface FeedbackEntry {
  readonly id: string;
  readonly articleId: string | null;
  readonly articleTitle: string | null;
  readonly type: FeedbackType;
  readonly feedback: string;
  readonly email: string | null;
  readonly resolved: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** The help center user with the entry's email, if there is one (matched when read). */
  readonly user: Pick<HelpCenterUser, 'id' | 'name' | 'email'> | null;
}

// Deliberately simple: one @, no spaces, a dot in the domain. Delivery, not syntax, proves an address.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An email as stored: trimmed and lowercase (matching is case-insensitive). 400 when it is not an address. */
export function normaliseEmail(email: string, field = 'email'): string {
  const value = email.trim().toLowerCase();
  if (value.length > 254 || !EMAIL.test(value)) throw ValidationError.field(field, `${field} must be an email address`);
  return value;
}

/** Help center users are unique by email within a helpdesk (case-insensitively: emails are stored lowercase). */
export class HelpCenterUserEmailTakenError extends ConflictError {
  constructor(email: string) {
    super(`A help center user with the email ${email} already exists`);
  }
}
