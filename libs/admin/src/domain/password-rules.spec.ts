import { describe, expect, it } from '@jest/globals';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from './password-rules.js';

const COMMON = new Set(['password1234', 'qwertyuiop123', 'sunshine', 'dragon', 'princess']);
const isCommon = (candidate: string) => COMMON.has(candidate);
const problem = (password: string, email: string | null = 'ada@example.com') => passwordProblem(password, email, isCommon);

describe('password rules', () => {
  it('accepts 12 to 256 characters, counted as characters rather than bytes or UTF-16 units', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(12);
    expect(PASSWORD_MAX_LENGTH).toBe(256);
    expect(problem('tonic-walrus-9')).toBeNull();
    expect(problem('abcdefghijk')).toBe('Use at least 12 characters.');
    expect(problem('x'.repeat(255) + 'y')).toBeNull();
    expect(problem('x'.repeat(256) + 'y')).toBe('Use at most 256 characters.');
    // Eleven emoji are 22 UTF-16 units but 11 characters.
    expect(problem('🦊🐙🦉🐝🦀🐢🦔🐧🦦🦥🐍')).toBe('Use at least 12 characters.');
    expect(problem('🦊🐙🦉🐝🦀🐢🦔🐧🦦🦥🐍🦩')).toBeNull();
  });

  it('refuses the most common passwords, whatever their case', () => {
    expect(problem('password1234')).toBe('This password is one of the most common passwords; choose another.');
    expect(problem('QwertyUiop123')).toBe('This password is one of the most common passwords; choose another.');
  });

  it('refuses a common password followed only by digits or punctuation, and one character repeated', () => {
    expect(problem('sunshine2024!!')).toMatch(/most common/);
    expect(problem('Princess12345')).toMatch(/most common/);
    expect(problem('aaaaaaaaaaaaaa')).toMatch(/most common/);
    // A common word inside a longer passphrase is fine.
    expect(problem('sunshine over the quiet harbour')).toBeNull();
  });

  it('refuses the email address or its local part as the password', () => {
    expect(problem('Ada.Lovelace@Example.com', 'ada.lovelace@example.com')).toBe("Don't use your email address as your password.");
    expect(problem('ada.lovelace.x', 'ada.lovelace.x@example.com')).toBe("Don't use your email address as your password.");
    expect(problem('ada.lovelace@example.com', null)).toBeNull();
  });
});
