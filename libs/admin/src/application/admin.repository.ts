import type { Admin } from '../domain/admin.js';

export abstract class AdminRepository {
  /**
   * Serialises changes to the set of admins (first admin, removal, setup links) until the current transaction
   * ends, across every process on the database. Only inside a transaction.
   */
  abstract lockAdminSet(): Promise<void>;
  /** Throws AdminEmailTakenError when the email is taken. */
  abstract insert(admin: Admin): Promise<void>;
  abstract find(id: string): Promise<Admin | null>;
  abstract findByEmail(email: string): Promise<Admin | null>;
  /** Oldest first. */
  abstract list(): Promise<Admin[]>;
  abstract count(): Promise<number>;
  /** False when there is no such admin. */
  abstract updatePasswordHash(id: string, passwordHash: string, at: Date): Promise<boolean>;
  /** Deletes the admin and (by cascade) their sessions; false when there was none. */
  abstract delete(id: string): Promise<boolean>;
}
