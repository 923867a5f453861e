/** Length limits of an admin's password, in characters (Unicode code points, after NFC normalisation). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/** What is wrong with a new password (the message shown beside the field), or null when it may be used. */
export function passwordProblem(password: string, email: string | null, isCommon: (candidate: string) => boolean): string | null {
  const normalised = password.normalize('NFC');
  const length = [...normalised].length;
  if (length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters.`;
  const lower = normalised.toLowerCase();
  if (email !== null) {
    const address = email.trim().toLowerCase();
    const local = address.split('@')[0] ?? address;
    if (lower === address || lower === local) return "Don't use your email address as your password.";
  }
  if (isCommonPattern(lower, isCommon)) return 'This password is one of the most common passwords; choose another.';
  return null;
}

/**
 * A listed common password, or one followed only by digits and punctuation (`password2024!`), or a single
 * character repeated.
 */
function isCommonPattern(lower: string, isCommon: (candidate: string) => boolean): boolean {
  if (isCommon(lower)) return true;
  const base = lower.replace(/[\d\p{P}\p{S}\s]+$/u, '');
  if (base.length >= 4 && base !== lower && isCommon(base)) return true;
  return new Set(lower).size === 1;
}
