import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Help center users (readers known by email) and reader feedback on articles. */
export class Feedback1795330000000 implements MigrationInterface {
  name = 'Feedback1795330000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE help_center_users (
        id           text PRIMARY KEY,
        helpdesk_id  text NOT NULL REFERENCES helpdesks (id),
        email        text NOT NULL CHECK (email = lower(email)),
        name         text,
        created_at   timestamptz NOT NULL,
        updated_at   timestamptz NOT NULL,
        UNIQUE (helpdesk_id, email)
      )`);
    await db.query('CREATE INDEX help_center_users_created ON help_center_users (created_at DESC, id DESC)');
    await db.query(`
      CREATE TABLE feedback (
        id             text PRIMARY KEY,
        helpdesk_id    text NOT NULL REFERENCES helpdesks (id),
        article_id     text REFERENCES articles (id) ON DELETE SET NULL,
        article_title  text,
        type           text NOT NULL CHECK (type IN ('positive', 'negative')),
        feedback       text NOT NULL,
        email          text CHECK (email = lower(email)),
        resolved       boolean NOT NULL DEFAULT false,
        created_at     timestamptz NOT NULL,
        updated_at     timestamptz NOT NULL
      )`);
    await db.query('CREATE INDEX feedback_created ON feedback (created_at DESC, id DESC)');
    await db.query('CREATE INDEX feedback_article ON feedback (article_id, created_at DESC, id DESC)');
    await db.query('CREATE INDEX feedback_email ON feedback (helpdesk_id, email) WHERE email IS NOT NULL');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE feedback');
    await db.query('DROP TABLE help_center_users');
  }
}
