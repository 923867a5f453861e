import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The scopes of the key that chose a webhook endpoint's events: the endpoint receives only events such a key may
 * read. Endpoints created before keep null, which is full access (what they received until now).
 */
export class WebhookScopes1795344000000 implements MigrationInterface {
  name = 'WebhookScopes1795344000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE webhook_endpoints ADD COLUMN created_by_scopes text[]');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE webhook_endpoints DROP COLUMN created_by_scopes');
  }
}
