import type { KeysetQuery, KeysetSlice } from '#core';
import type { HelpCenterUser } from '../domain/feedback.js';

export abstract class HelpCenterUserRepository {
  /** Throws HelpCenterUserEmailTakenError when the email is taken in the helpdesk. */
  abstract insert(user: HelpCenterUser): Promise<void>;
  /** Throws HelpCenterUserEmailTakenError when the email is taken in the helpdesk. */
  abstract update(user: HelpCenterUser): Promise<void>;
  abstract find(id: string): Promise<HelpCenterUser | null>;
  /** The user, its row locked until the end of the current transaction. */
  abstract findForUpdate(id: string): Promise<HelpCenterUser | null>;
  /** Newest first. */
  abstract list(query: KeysetQuery): Promise<KeysetSlice<HelpCenterUser>>;
}
