import { Injectable } from '@nestjs/common';
import { ValidationError } from '#core';
import { passwordProblem } from '../domain/password-rules.js';
import { CommonPasswords } from './common-passwords.js';

/** The rules a new password must pass: length, not the email, not one of the most common passwords. */
@Injectable()
export class PasswordPolicy {
  constructor(private readonly common: CommonPasswords) {}

  /** Throws a ValidationError on `field` with the message to show beside it. */
  async check(password: string, email: string | null, field = 'password'): Promise<void> {
    await this.common.load();
    const problem = passwordProblem(password, email, (candidate) => this.common.has(candidate));
    if (problem) throw ValidationError.field(field, problem);
  }
}
