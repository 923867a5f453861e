import { ConflictError, DomainError, InvalidStateError, ValidationError } from '#core/domain';

/** An admin of the developer settings. The password hash never leaves the lib's repositories and use cases. */
export interface Admin {
  readonly id: string;
  /** Trimmed and lowercase: matching is case-insensitive. */
  readonly email: string;
  readonly name: string;
  /** `scrypt$N$r$p$<salt>$<hash>` (see ScryptPasswordHasher). */
  readonly passwordHash: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export const MAX_ADMIN_NAME_LENGTH = 100;
const MAX_EMAIL_LENGTH = 254;
// Deliberately simple: one @, no spaces, a dot in the domain. Delivery, not syntax, proves an address.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** An email as stored: trimmed and lowercase. A ValidationError on `field` when it is not an address. */
export function normaliseAdminEmail(email: string, field = 'email'): string {
  const value = email.trim().toLowerCase();
  if (value.length > MAX_EMAIL_LENGTH || !EMAIL.test(value)) throw ValidationError.field(field, 'Enter an email address such as name@example.com.');
  return value;
}

/** A name as stored: trimmed, 1 to 100 characters, no control characters. */
export function normaliseAdminName(name: string, field = 'name'): string {
  const value = name.trim();
  if (value.length === 0) throw ValidationError.field(field, 'Enter a name.');
  if ([...value].length > MAX_ADMIN_NAME_LENGTH) throw ValidationError.field(field, `Use at most ${MAX_ADMIN_NAME_LENGTH} characters.`);
  if (CONTROL.test(value)) throw ValidationError.field(field, 'The name contains a control character.');
  return value;
}

/** Admins are unique by email (case-insensitively: emails are stored lowercase). */
export class AdminEmailTakenError extends ConflictError {
  constructor(email: string) {
    super(`An admin with the email ${email} already exists.`);
  }
}

/** There is always at least one admin. */
export class LastAdminError extends InvalidStateError {
  constructor() {
    super("The last admin can't be removed: add another admin first.");
  }
}

/** The setup link is unknown, used, expired, or an admin exists already. */
export class InvalidSetupTokenError extends InvalidStateError {
  constructor() {
    super('This setup link is invalid, expired or already used. Sign in, or create an admin with `npm run cli -- admins create`.');
  }
}

/**
 * Sign-in refused: the same error, message and timing whether the email belongs to an admin or not (no user
 * enumeration).
 */
export class InvalidCredentialsError extends DomainError {
  constructor() {
    super('unauthorized', 'Email or password is incorrect.');
  }
}

/** Too many sign-in attempts for the account or from the address; says when to try again and nothing else. */
export class SignInThrottledError extends DomainError {
  readonly retryAfterMinutes: number;

  constructor(readonly retryAfterSeconds: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    super('rate_limited', `Too many sign-in attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`);
    this.retryAfterMinutes = minutes;
  }
}
