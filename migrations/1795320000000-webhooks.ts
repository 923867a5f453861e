import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The transactional outbox (events recorded with the change that caused them), webhook endpoints, one delivery
 * per event and endpoint, and the attempts of each delivery.
 */
export class Webhooks1795320000000 implements MigrationInterface {
  name = 'Webhooks1795320000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE outbox_events (
        id           text PRIMARY KEY,
        type         text NOT NULL,
        -- json, not jsonb: the payload keeps the key order of the API response it copies.
        data         json NOT NULL,
        occurred_at  timestamptz NOT NULL,
        relayed_at   timestamptz
      )`);
    // The relay reads only what is not relayed yet: a small partial index however long the table grows.
    await db.query('CREATE INDEX outbox_events_unrelayed ON outbox_events (id) WHERE relayed_at IS NULL');
    await db.query('CREATE INDEX outbox_events_occurred_at ON outbox_events (occurred_at)');
    await db.query(`
      CREATE TABLE webhook_endpoints (
        id                       text PRIMARY KEY,
        url                      text NOT NULL,
        description              text,
        events                   text[] NOT NULL,
        enabled                  boolean NOT NULL DEFAULT true,
        secret                   text NOT NULL,
        previous_secret          text,
        previous_secret_until    timestamptz,
        failure_count            integer NOT NULL DEFAULT 0,
        last_success_at          timestamptz,
        last_failure_at          timestamptz,
        disabled_at              timestamptz,
        enabled_at               timestamptz NOT NULL,
        created_at               timestamptz NOT NULL,
        updated_at               timestamptz NOT NULL
      )`);
    await db.query('CREATE INDEX webhook_endpoints_created ON webhook_endpoints (created_at DESC, id DESC)');
    await db.query(`
      CREATE TABLE webhook_deliveries (
        id               text PRIMARY KEY,
        endpoint_id      text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        event_id         text NOT NULL REFERENCES outbox_events (id) ON DELETE CASCADE,
        event_type       text NOT NULL,
        status           text NOT NULL CHECK (status IN ('pending', 'success', 'failed')),
        attempts         integer NOT NULL DEFAULT 0,
        response_status  integer,
        error            text,
        created_at       timestamptz NOT NULL,
        delivered_at     timestamptz,
        next_retry_at    timestamptz,
        -- When the pending delivery is due (its first attempt or its next retry): the sweep re-queues those overdue.
        due_at           timestamptz,
        updated_at       timestamptz NOT NULL,
        UNIQUE (event_id, endpoint_id)
      )`);
    await db.query('CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC, id DESC)');
    await db.query("CREATE INDEX webhook_deliveries_due ON webhook_deliveries (due_at) WHERE status = 'pending'");
    await db.query('CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_at)');
    await db.query(`
      CREATE TABLE webhook_delivery_attempts (
        id                text PRIMARY KEY,
        delivery_id       text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
        attempt           integer NOT NULL,
        attempted_at      timestamptz NOT NULL,
        response_status   integer,
        duration_ms       integer NOT NULL,
        error             text,
        response_excerpt  text
      )`);
    await db.query('CREATE INDEX webhook_delivery_attempts_delivery ON webhook_delivery_attempts (delivery_id, attempt)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE webhook_delivery_attempts');
    await db.query('DROP TABLE webhook_deliveries');
    await db.query('DROP TABLE webhook_endpoints');
    await db.query('DROP TABLE outbox_events');
  }
}
