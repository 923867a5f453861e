import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Why a webhook endpoint is disabled: `disabled_reason` (`manual` by a key or an admin, `gone` when the receiver
 * answered 410, `sustained_failures`) and `disabled_message`, one sentence for people (never a secret nor the URL's
 * path or query). Both are null while the endpoint is enabled.
 *
 * Endpoints disabled before take the reason from the audit log when it recorded the disabling (the latest
 * `webhook.disabled` or `webhook.auto_disabled` since they were last enabled); the others keep null (not known).
 */
export class WebhookDisabledReason1795364000000 implements MigrationInterface {
  name = 'WebhookDisabledReason1795364000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE webhook_endpoints
        ADD COLUMN disabled_reason text CONSTRAINT webhook_endpoints_disabled_reason_check CHECK (disabled_reason IN ('manual', 'gone', 'sustained_failures')),
        ADD COLUMN disabled_message text,
        ADD CONSTRAINT webhook_endpoints_enabled_no_reason_check CHECK (NOT enabled OR (disabled_reason IS NULL AND disabled_message IS NULL))`);
    await db.query(`
      UPDATE webhook_endpoints e
         SET disabled_reason = CASE WHEN a.action = 'webhook.disabled' THEN 'manual' ELSE a.details->>'reason' END,
             disabled_message = CASE WHEN a.action = 'webhook.disabled' THEN 'Disabled by hand.' ELSE left(a.details->>'message', 300) END
        FROM (
          SELECT DISTINCT ON (a.target_id) a.target_id, a.action, a.details
            FROM audit_log a
            JOIN webhook_endpoints w ON w.id = a.target_id AND NOT w.enabled
           WHERE a.target_type = 'webhook_endpoint' AND a.action IN ('webhook.disabled', 'webhook.auto_disabled') AND a.occurred_at >= w.enabled_at
           ORDER BY a.target_id, a.occurred_at DESC, a.id DESC
        ) a
       WHERE e.id = a.target_id
         AND (a.action = 'webhook.disabled' OR a.details->>'reason' IN ('gone', 'sustained_failures'))`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      'ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_enabled_no_reason_check, DROP COLUMN disabled_message, DROP COLUMN disabled_reason',
    );
  }
}
