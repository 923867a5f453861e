import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The public help center: the helpdesk's branding (logo, accent colour, footer links), the slugs articles were
 * live under before their slug changed (so old links answer 301 to the current slug), and the indexes the pages'
 * reads need over live articles (newest first overall, per collection and per section; translations by language)
 * and for the site-wide "last changed" time (the newest change of any article, published translation, section or
 * collection: the pages' Last-Modified never goes back, not even when something is unpublished or trashed).
 */
export class HelpCenter1795348000000 implements MigrationInterface {
  name = 'HelpCenter1795348000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE helpdesks
        ADD COLUMN logo_url text,
        ADD COLUMN accent_color text,
        ADD COLUMN footer_links jsonb NOT NULL DEFAULT '[]'::jsonb`);

    // One row per slug an article was live under and no longer is. A slug another article takes is no longer
    // an old slug (the row goes, in the transaction that takes it); an article taking its own old slug back too.
    await db.query(`
      CREATE TABLE article_slug_history (
        helpdesk_id  text NOT NULL REFERENCES helpdesks (id),
        slug         text NOT NULL,
        article_id   text NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
        created_at   timestamptz(3) NOT NULL,
        PRIMARY KEY (helpdesk_id, slug)
      )`);
    await db.query('CREATE INDEX article_slug_history_article_idx ON article_slug_history (article_id)');

    await db.query(`CREATE INDEX articles_live_published_idx ON articles (published_at DESC, id DESC) WHERE status = 'published'`);
    await db.query(`CREATE INDEX articles_live_collection_idx ON articles (collection_id, published_at DESC, id DESC) WHERE status = 'published'`);
    await db.query(`CREATE INDEX articles_live_section_idx ON articles (section_id, published_at DESC, id DESC) WHERE status = 'published'`);
    await db.query('CREATE INDEX articles_changed_idx ON articles (updated_at)');
    await db.query('CREATE INDEX article_translations_live_idx ON article_translations (locale, published_at DESC, article_id DESC) WHERE published_at IS NOT NULL');
    await db.query('CREATE INDEX article_translations_published_idx ON article_translations (published_at) WHERE published_at IS NOT NULL');
    await db.query('CREATE INDEX sections_changed_idx ON sections (updated_at)');
    await db.query('CREATE INDEX section_translations_changed_idx ON section_translations (updated_at)');
    await db.query('CREATE INDEX collections_changed_idx ON collections (updated_at)');
    await db.query('CREATE INDEX collection_translations_changed_idx ON collection_translations (updated_at)');
  }

  async down(db: QueryRunner): Promise<void> {
    for (const index of [
      'collection_translations_changed_idx',
      'collections_changed_idx',
      'section_translations_changed_idx',
      'sections_changed_idx',
      'article_translations_published_idx',
      'article_translations_live_idx',
      'articles_changed_idx',
      'articles_live_section_idx',
      'articles_live_collection_idx',
      'articles_live_published_idx',
    ]) {
      await db.query(`DROP INDEX IF EXISTS ${index}`);
    }
    await db.query('DROP TABLE IF EXISTS article_slug_history');
    await db.query('ALTER TABLE helpdesks DROP COLUMN IF EXISTS footer_links, DROP COLUMN IF EXISTS accent_color, DROP COLUMN IF EXISTS logo_url');
  }
}
