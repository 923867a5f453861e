import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log (who changed what, when and from which address: sign-ins, key and webhook changes), and API keys'
 * optional expiry and creator. Keys created before keep no expiry and no creator.
 */
export class AuditAndKeyExpiry1795352000000 implements MigrationInterface {
  name = 'AuditAndKeyExpiry1795352000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE audit_log (
        id           text PRIMARY KEY,
        occurred_at  timestamptz(3) NOT NULL,
        actor_kind   text NOT NULL CHECK (actor_kind IN ('admin', 'api_key', 'cli', 'system')),
        actor_id     text,
        actor_label  text,
        ip           text,
        action       text NOT NULL,
        target_type  text NOT NULL,
        target_id    text,
        details      jsonb NOT NULL DEFAULT '{}'
      )`);
    await db.query('CREATE INDEX audit_log_occurred_at_idx ON audit_log (occurred_at DESC, id DESC)');
    await db.query('ALTER TABLE api_keys ADD COLUMN expires_at timestamptz(3), ADD COLUMN created_by text');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE api_keys DROP COLUMN expires_at, DROP COLUMN created_by');
    await db.query('DROP TABLE audit_log');
  }
}
