import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The help center's content version without a hot row. It was one row that the commit of every content change
 * updated, so content writes queued behind each other's commits (POST /v1/articles lost about a tenth of its
 * throughput under 16 writers). Now each committing transaction that changed public content adds one row of weight
 * 1 to `help_center_changes`, with no lock shared between writers, and the version is the sum of the weights: the
 * number of such transactions a snapshot sees. Snapshots taken later see a superset of the commits earlier ones saw,
 * so a later reader sees a larger sum exactly when something was committed in between, whatever the commit order.
 * A periodic job folds the rows into one of the same total weight (`CompactHelpCenterChanges`), so the sum stays a
 * read of a few rows. The number carries on from the old counter.
 */
export class HelpCenterChanges1795368000000 implements MigrationInterface {
  name = 'HelpCenterChanges1795368000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query('CREATE TABLE help_center_changes (weight bigint NOT NULL CHECK (weight > 0))');
    await db.query('INSERT INTO help_center_changes (weight) SELECT version FROM help_center_version');
    // The same function the triggers call: once per transaction (a transaction-local mark), one row.
    await db.query(`
      CREATE OR REPLACE FUNCTION raise_help_center_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF current_setting('help_center.changed_in', true) IS DISTINCT FROM pg_current_xact_id()::text THEN
          PERFORM set_config('help_center.changed_in', pg_current_xact_id()::text, true);
          INSERT INTO help_center_changes (weight) VALUES (1);
        END IF;
        RETURN NULL;
      END
      $$`);
    await db.query('DROP TABLE help_center_version');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE help_center_version (
        singleton  boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        version    bigint NOT NULL,
        raised_by  xid8
      )`);
    await db.query('INSERT INTO help_center_version (version) SELECT coalesce(sum(weight), 1) FROM help_center_changes');
    await db.query(`
      CREATE OR REPLACE FUNCTION raise_help_center_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE help_center_version SET version = version + 1, raised_by = pg_current_xact_id()
        WHERE singleton AND raised_by IS DISTINCT FROM pg_current_xact_id();
        RETURN NULL;
      END
      $$`);
    await db.query('DROP TABLE help_center_changes');
  }
}
