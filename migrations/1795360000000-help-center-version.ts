import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables whose rows the public help center's pages are made of. */
const PUBLIC_CONTENT_TABLES = [
  'helpdesks',
  'sections',
  'section_translations',
  'collections',
  'collection_translations',
  'articles',
  'article_translations',
  'article_slug_history',
] as const;

/**
 * The help center's content version: one number that every committed change to what the public pages are made of
 * raises by one, so an API process can keep rendered pages and know, with one tiny read, whether they are still
 * current.
 *
 * Each changed row queues a deferred constraint trigger; at commit the first of them raises the number (the later
 * ones see their own transaction's mark and do nothing). The row stays locked until the commit ends, so raises are
 * in commit order: a reader that sees number n sees every change committed before n and none after. A sequence
 * would not do (nextval is not transactional: a reader could see a number whose change has not committed yet), nor
 * the newest `updated_at` (transaction start times, not commit order, and deletions leave no trace). Holding the
 * row only for the commit itself keeps content writes concurrent until then. TRUNCATE (tests, restores) raises it too.
 */
export class HelpCenterVersion1795360000000 implements MigrationInterface {
  name = 'HelpCenterVersion1795360000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE help_center_version (
        singleton  boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        version    bigint NOT NULL,
        raised_by  xid8
      )`);
    await db.query('INSERT INTO help_center_version (version) VALUES (1)');
    await db.query(`
      CREATE FUNCTION raise_help_center_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE help_center_version SET version = version + 1, raised_by = pg_current_xact_id()
        WHERE singleton AND raised_by IS DISTINCT FROM pg_current_xact_id();
        RETURN NULL;
      END
      $$`);
    for (const table of PUBLIC_CONTENT_TABLES) {
      await db.query(`
        CREATE CONSTRAINT TRIGGER ${table}_raise_help_center_version
        AFTER INSERT OR UPDATE OR DELETE ON ${table}
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION raise_help_center_version()`);
      await db.query(`
        CREATE TRIGGER ${table}_truncate_raises_help_center_version
        AFTER TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION raise_help_center_version()`);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of [...PUBLIC_CONTENT_TABLES].reverse()) {
      await db.query(`DROP TRIGGER ${table}_truncate_raises_help_center_version ON ${table}`);
      await db.query(`DROP TRIGGER ${table}_raise_help_center_version ON ${table}`);
    }
    await db.query('DROP FUNCTION raise_help_center_version()');
    await db.query('DROP TABLE help_center_version');
  }
}
