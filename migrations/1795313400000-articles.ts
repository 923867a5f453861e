import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Articles with their open drafts, immutable revisions (content stored as ProseMirror JSON with its rendered
 * Markdown and HTML), translations and full-text search vectors.
 */
export class Articles1795313400000 implements MigrationInterface {
  name = 'Articles1795313400000';

  async up(db: QueryRunner): Promise<void> {
    // Text-search configuration per language code: the stemmers every PostgreSQL 15+ ships; others match
    // words as written ('simple'). Used both to index and to query, so the two always agree. STABLE, not
    // IMMUTABLE: the cast to regconfig looks the name up in the catalog.
    await db.query(`
      CREATE FUNCTION help_search_config(language text) RETURNS regconfig
      LANGUAGE sql STABLE PARALLEL SAFE AS $$
        SELECT (CASE split_part(lower(language), '-', 1)
          WHEN 'da' THEN 'danish' WHEN 'de' THEN 'german' WHEN 'en' THEN 'english' WHEN 'es' THEN 'spanish'
          WHEN 'fi' THEN 'finnish' WHEN 'fr' THEN 'french' WHEN 'hu' THEN 'hungarian' WHEN 'it' THEN 'italian'
          WHEN 'nb' THEN 'norwegian' WHEN 'no' THEN 'norwegian' WHEN 'nl' THEN 'dutch' WHEN 'pt' THEN 'portuguese'
          WHEN 'ro' THEN 'romanian' WHEN 'ru' THEN 'russian' WHEN 'sv' THEN 'swedish' WHEN 'tr' THEN 'turkish'
          ELSE 'simple' END)::regconfig
      $$`);
    // The words of a Markdown body for indexing and snippets: directive fences, link targets and formatting
    // characters removed, so that neither ranks nor snippets show Markdown syntax.
    await db.query(`
      CREATE FUNCTION help_plain_text(markdown text) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT regexp_replace(
                 regexp_replace(
                   regexp_replace(markdown, '^ {0,3}:{3,}.*$', '', 'gn'),
                 '\\]\\([^)]*\\)', ']', 'g'),
               '[#*_\x60>~|\\[\\]!]+|^ {0,3}[-+] |^ {0,3}\\d+\\. ', ' ', 'gn')
      $$`);
    await db.query(`
      CREATE TABLE articles (
        id                   text PRIMARY KEY,
        helpdesk_id          text NOT NULL REFERENCES helpdesks (id),
        section_id           text NOT NULL REFERENCES sections (id),
        collection_id        text REFERENCES collections (id),
        status               text NOT NULL CHECK (status IN ('draft', 'published', 'trashed')),
        status_before_trash  text CHECK (status_before_trash IN ('draft', 'published')),
        slug                 text NOT NULL,
        custom_slug          boolean NOT NULL DEFAULT false,
        keywords             text,
        meta_description     text,
        og_image             text,
        latest_version       integer NOT NULL DEFAULT 0,
        row_version          integer NOT NULL DEFAULT 0,
        current_revision_id  text,
        live_revision_id     text,
        published_at         timestamptz(3),
        created_at           timestamptz(3) NOT NULL,
        updated_at           timestamptz(3) NOT NULL,
        search_vector        tsvector,
        CONSTRAINT articles_slug_key UNIQUE (helpdesk_id, slug)
      )`);
    await db.query(`CREATE INDEX articles_created_idx ON articles (created_at DESC, id DESC) WHERE status <> 'trashed'`);
    await db.query(`CREATE INDEX articles_status_created_idx ON articles (status, created_at DESC, id DESC)`);
    await db.query(`CREATE INDEX articles_updated_idx ON articles (updated_at, id) WHERE status <> 'trashed'`);
    await db.query(`CREATE INDEX articles_collection_idx ON articles (collection_id, created_at DESC, id DESC)`);
    await db.query(`CREATE INDEX articles_section_idx ON articles (section_id)`);
    // A small pending list (256 KB): with the default 4 MB of writes waiting for the next vacuum the planner
    // priced the index above reading every vector, and search slowed down until autovacuum came by; with no
    // pending list at all (fastupdate off) every publish paid for hundreds of index insertions at once.
    // Only live articles have a vector.
    await db.query(`CREATE INDEX articles_search_idx ON articles USING gin (search_vector) WITH (gin_pending_list_limit = 256)`);

    await db.query(`
      CREATE TABLE article_revisions (
        id                 text PRIMARY KEY,
        article_id         text NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
        version            integer NOT NULL,
        title              text NOT NULL,
        content_json       jsonb NOT NULL,
        content_markdown   text NOT NULL,
        content_html       text NOT NULL,
        created_by_key_id  text,
        created_at         timestamptz(3) NOT NULL,
        CONSTRAINT article_revisions_version_key UNIQUE (article_id, version)
      )`);
    await db.query(`
      ALTER TABLE articles
        ADD CONSTRAINT articles_current_revision_fkey FOREIGN KEY (current_revision_id) REFERENCES article_revisions (id) DEFERRABLE INITIALLY DEFERRED,
        ADD CONSTRAINT articles_live_revision_fkey FOREIGN KEY (live_revision_id) REFERENCES article_revisions (id) DEFERRABLE INITIALLY DEFERRED`);

    await db.query(`
      CREATE TABLE article_drafts (
        id                text PRIMARY KEY,
        article_id        text NOT NULL CONSTRAINT article_drafts_article_key UNIQUE REFERENCES articles (id) ON DELETE CASCADE,
        revision_id       text NOT NULL REFERENCES article_revisions (id),
        base_revision_id  text REFERENCES article_revisions (id),
        created_at        timestamptz(3) NOT NULL,
        updated_at        timestamptz(3) NOT NULL
      )`);

    await db.query(`
      CREATE TABLE article_translations (
        id                  text PRIMARY KEY,
        article_id          text NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
        locale              text NOT NULL,
        title               text NOT NULL,
        content_json        jsonb NOT NULL,
        content_markdown    text NOT NULL,
        content_html        text NOT NULL,
        published_title     text,
        published_json      jsonb,
        published_markdown  text,
        published_html      text,
        published_at        timestamptz(3),
        outdated            boolean NOT NULL DEFAULT false,
        created_at          timestamptz(3) NOT NULL,
        updated_at          timestamptz(3) NOT NULL,
        search_vector       tsvector,
        CONSTRAINT article_translations_locale_key UNIQUE (article_id, locale)
      )`);
    await db.query(`CREATE INDEX article_translations_locale_idx ON article_translations (locale, article_id)`);
    await db.query(`CREATE INDEX article_translations_search_idx ON article_translations USING gin (search_vector) WITH (gin_pending_list_limit = 256)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE IF EXISTS article_translations');
    await db.query('DROP TABLE IF EXISTS article_drafts');
    await db.query('ALTER TABLE IF EXISTS articles DROP CONSTRAINT IF EXISTS articles_current_revision_fkey, DROP CONSTRAINT IF EXISTS articles_live_revision_fkey');
    await db.query('DROP TABLE IF EXISTS article_revisions');
    await db.query('DROP TABLE IF EXISTS articles');
    await db.query('DROP FUNCTION IF EXISTS help_search_config(text)');
    await db.query('DROP FUNCTION IF EXISTS help_plain_text(text)');
  }
}
