import { Injectable } from '@nestjs/common';
import { CommonPasswords } from '../application/common-passwords.js';

/**
 * The "passwords-common" dictionary of @zxcvbn-ts/language-common: about 49,000 of the most common passwords from
 * leaked password sets, lowercase, as zxcvbn-ts itself ranks guesses with. Loaded on first use (about 25 ms, kept
 * in a Set), so processes that never check a password do not pay for it.
 */
@Injectable()
export class ListedCommonPasswords extends CommonPasswords {
  private list: ReadonlySet<string> | null = null;
  private loading: Promise<void> | null = null;

  load(): Promise<void> {
    this.loading ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => {
      this.list = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
    });
    return this.loading;
  }

  has(lowercasePassword: string): boolean {
    if (!this.list) throw new Error('CommonPasswords.load() must resolve before has()');
    return this.list.has(lowercasePassword);
  }
}
