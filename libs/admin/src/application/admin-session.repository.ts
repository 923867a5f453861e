import type { Admin } from '../domain/admin.js';
import type { AdminSession } from '../domain/admin-session.js';

export abstract class AdminSessionRepository {
  abstract insert(session: AdminSession): Promise<void>;
  /** The session with this token hash and its admin, or null. */
  abstract findByTokenHash(tokenHash: string): Promise<{ session: AdminSession; admin: Admin } | null>;
  /** Sets last_seen_at to `at` unless it is later already. */
  abstract touch(id: string, at: Date): Promise<void>;
  /** Newest first. */
  abstract listForAdmin(adminId: string): Promise<AdminSession[]>;
  /** False when there was no such session. */
  abstract delete(id: string): Promise<boolean>;
  /** Deletes one of the admin's sessions; false when they have none with that ID. */
  abstract deleteForAdmin(adminId: string, id: string): Promise<boolean>;
  /** Deletes every session of the admin, but `exceptId`; returns how many. */
  abstract deleteAllForAdmin(adminId: string, exceptId?: string): Promise<number>;
  /** Deletes sessions past their absolute end or idle longer than `idleMs` at `now`. */
  abstract deleteExpired(now: Date, idleMs: number): Promise<void>;
}
