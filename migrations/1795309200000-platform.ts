import type { MigrationInterface, QueryRunner } from 'typeorm';

/** API keys, idempotency records, the helpdesk, sections and collections with their translations. */
export class Platform1795309200000 implements MigrationInterface {
  name = 'Platform1795309200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE api_keys (
        id            text PRIMARY KEY,
        name          text NOT NULL,
        key_hash      text NOT NULL CONSTRAINT api_keys_key_hash_key UNIQUE,
        last_four     text NOT NULL,
        scopes        text[],
        created_at    timestamptz(3) NOT NULL,
        last_used_at  timestamptz(3),
        revoked_at    timestamptz(3)
      )`);

    await db.query(`
      CREATE TABLE idempotency_keys (
        owner             text NOT NULL,
        key               text NOT NULL,
        fingerprint       text NOT NULL,
        response_status   integer,
        response_body     jsonb,
        response_headers  jsonb,
        created_at        timestamptz(3) NOT NULL,
        completed_at      timestamptz(3),
        PRIMARY KEY (owner, key)
      )`);
    await db.query(`CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at)`);

    await db.query(`
      CREATE TABLE helpdesks (
        id                text PRIMARY KEY,
        singleton         boolean NOT NULL DEFAULT true CONSTRAINT helpdesks_singleton_key UNIQUE CHECK (singleton),
        name              text NOT NULL,
        default_language  text NOT NULL,
        languages         text[] NOT NULL,
        created_at        timestamptz(3) NOT NULL,
        updated_at        timestamptz(3) NOT NULL
      )`);

    await db.query(`
      CREATE TABLE sections (
        id           text PRIMARY KEY,
        helpdesk_id  text NOT NULL REFERENCES helpdesks (id),
        name         text NOT NULL,
        is_default   boolean NOT NULL DEFAULT false,
        position     integer NOT NULL,
        created_at   timestamptz(3) NOT NULL,
        updated_at   timestamptz(3) NOT NULL
      )`);
    await db.query(`CREATE UNIQUE INDEX sections_one_default_idx ON sections (helpdesk_id) WHERE is_default`);
    await db.query(`CREATE INDEX sections_position_idx ON sections (position, id)`);

    await db.query(`
      CREATE TABLE section_translations (
        id          text PRIMARY KEY,
        section_id  text NOT NULL REFERENCES sections (id) ON DELETE CASCADE,
        language    text NOT NULL,
        name        text NOT NULL,
        status      text NOT NULL CHECK (status IN ('draft', 'published')),
        created_at  timestamptz(3) NOT NULL,
        updated_at  timestamptz(3) NOT NULL,
        CONSTRAINT section_translations_language_key UNIQUE (section_id, language)
      )`);

    await db.query(`
      CREATE TABLE collections (
        id                    text PRIMARY KEY,
        helpdesk_id           text NOT NULL REFERENCES helpdesks (id),
        section_id            text REFERENCES sections (id),
        parent_collection_id  text REFERENCES collections (id),
        title                 text NOT NULL,
        subtitle              text,
        short_id              text NOT NULL,
        created_at            timestamptz(3) NOT NULL,
        updated_at            timestamptz(3) NOT NULL,
        CONSTRAINT collections_short_id_key UNIQUE (helpdesk_id, short_id),
        CONSTRAINT collections_not_own_parent CHECK (parent_collection_id IS DISTINCT FROM id)
      )`);
    await db.query(`CREATE INDEX collections_created_idx ON collections (created_at DESC, id DESC)`);
    await db.query(`CREATE INDEX collections_section_idx ON collections (section_id, created_at DESC, id DESC)`);
    await db.query(`CREATE INDEX collections_parent_idx ON collections (parent_collection_id)`);

    await db.query(`
      CREATE TABLE collection_translations (
        id             text PRIMARY KEY,
        collection_id  text NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
        language       text NOT NULL,
        title          text NOT NULL,
        subtitle       text,
        status         text NOT NULL CHECK (status IN ('draft', 'published')),
        created_at     timestamptz(3) NOT NULL,
        updated_at     timestamptz(3) NOT NULL,
        CONSTRAINT collection_translations_language_key UNIQUE (collection_id, language)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of ['collection_translations', 'collections', 'section_translations', 'sections', 'helpdesks', 'idempotency_keys', 'api_keys']) {
      await db.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
