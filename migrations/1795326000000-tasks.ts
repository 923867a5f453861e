import type { MigrationInterface, QueryRunner } from 'typeorm';

/** AI tasks and their outputs (proposed changes to articles, collections and sections). */
export class Tasks1795326000000 implements MigrationInterface {
  name = 'Tasks1795326000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE tasks (
        id                    text PRIMARY KEY,
        title                 text,
        instruction           text NOT NULL,
        status                text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
        target_article_id     text REFERENCES articles (id) ON DELETE SET NULL,
        target_collection_id  text REFERENCES collections (id) ON DELETE SET NULL,
        target_section_id     text REFERENCES sections (id) ON DELETE SET NULL,
        auto_apply            boolean NOT NULL,
        generator             text,
        error                 text,
        attempts              integer NOT NULL DEFAULT 0,
        created_by_key_id     text NOT NULL,
        created_by_scopes     text[],
        started_at            timestamptz,
        finished_at           timestamptz,
        created_at            timestamptz NOT NULL,
        updated_at            timestamptz NOT NULL
      )`);
    await db.query('CREATE INDEX tasks_created ON tasks (created_at DESC, id DESC)');
    await db.query("CREATE INDEX tasks_running ON tasks (started_at) WHERE status = 'running'");
    await db.query(`
      CREATE TABLE task_outputs (
        id                    text PRIMARY KEY,
        task_id               text NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        position              integer NOT NULL,
        kind                  text NOT NULL CHECK (kind IN ('article', 'collection', 'section')),
        operation             text NOT NULL CHECK (operation IN ('create', 'update')),
        status                text NOT NULL CHECK (status IN ('proposed', 'applied', 'rejected', 'failed')),
        title                 text NOT NULL,
        markdown              text NOT NULL,
        target_article_id     text,
        target_collection_id  text,
        target_section_id     text,
        error                 text,
        applied_at            timestamptz,
        created_at            timestamptz NOT NULL,
        updated_at            timestamptz NOT NULL,
        UNIQUE (task_id, position)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE task_outputs');
    await db.query('DROP TABLE tasks');
  }
}
