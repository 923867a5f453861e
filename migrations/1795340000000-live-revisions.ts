import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which revisions were ever live: keys that may read only published content see those revisions and no others
 * (an article's first versions, written before it was first published, and drafts saved between publications, never
 * were). Before this, nothing recorded it: only the revisions live now are marked, so read-only keys see less of the
 * history of articles published before, never more.
 */
export class LiveRevisions1795340000000 implements MigrationInterface {
  name = 'LiveRevisions1795340000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE article_revisions ADD COLUMN went_live_at timestamptz(3)');
    await db.query(`
      UPDATE article_revisions r SET went_live_at = COALESCE(a.published_at, r.created_at)
        FROM articles a WHERE a.live_revision_id = r.id`);
    await db.query('CREATE INDEX article_revisions_went_live_idx ON article_revisions (article_id, created_at DESC, id DESC) WHERE went_live_at IS NOT NULL');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE article_revisions DROP COLUMN went_live_at');
  }
}
