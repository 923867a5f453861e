import type { Helpdesk } from '../domain/helpdesk.js';

/** Port: the deployment's single helpdesk row. */
export abstract class HelpdeskRepository {
  /** forUpdate: lock the row until the current transaction ends (a write saves every field back). */
  abstract find(options?: { forUpdate?: boolean }): Promise<Helpdesk | null>;
  /** Inserts the helpdesk unless one exists already; true when this call inserted it. */
  abstract insertIfAbsent(helpdesk: Helpdesk): Promise<boolean>;
  abstract update(helpdesk: Helpdesk): Promise<void>;
}
