import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#core';
import { HelpCenterVersionRepository } from '../application/help-center-version.repository.js';

/** The content version as the sum of `help_center_changes` (one row of weight 1 per committed content transaction). */
@Injectable()
export class SqlHelpCenterVersionRepository extends HelpCenterVersionRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async current(): Promise<string> {
    const [row] = await this.tx.prepared<{ version: string }>('help_center_version', 'SELECT coalesce(sum(weight), 0)::text AS version FROM help_center_changes');
    return row!.version;
  }

  /**
   * One statement: the rows this snapshot sees go, one row of their total weight comes. Rows committed meanwhile
   * are not in the snapshot, so they stay; every reader sees the same sum before and after.
   */
  async compact(): Promise<number> {
    const [row] = await this.tx.query<{ folded: number }>(
      `WITH gone AS (DELETE FROM help_center_changes RETURNING weight),
         kept AS (INSERT INTO help_center_changes (weight) SELECT sum(weight) FROM gone HAVING count(*) > 0 RETURNING weight)
       SELECT (SELECT count(*) FROM gone)::int AS folded`,
    );
    return row!.folded;
  }
}
