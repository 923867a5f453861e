import { Injectable } from '@nestjs/common';
import { type KeysetQuery, type KeysetSlice, readKeysetRows, SecretCipher, SecretCipherError, TransactionHost } from '#core';
import { WebhookEndpointRepository } from '../application/webhook-endpoint.repository.js';
import { type WebhookEndpointFields, webhookEndpointView, type WebhookEndpointView } from '../application/webhook-views.js';
import { type DisableCause, WebhookEndpoint, type WebhookEndpointProps, WebhookSecretUnreadableError } from '../domain/webhook-endpoint.js';

/** What an endpoint shows: no secrets (lists and reads never open them). */
const VIEW_COLUMNS = `e.id, e.url, e.description, e.events, e.enabled, e.failure_count AS "failureCount", e.last_success_at AS "lastSuccessAt",
  e.last_failure_at AS "lastFailureAt", e.disabled_at AS "disabledAt", e.disabled_reason AS "disabledReason", e.disabled_message AS "disabledMessage", e.created_at AS "createdAt", e.updated_at AS "updatedAt"`;

/** The whole endpoint, secrets (sealed) included. */
export const ENDPOINT_COLUMNS = `${VIEW_COLUMNS}, e.secret, e.previous_secret AS "previousSecret", e.previous_secret_until AS "previousSecretUntil",
  e.enabled_at AS "enabledAt", e.created_by_scopes AS "createdByScopes"`;

/**
 * An endpoint from its row: the signing secrets are stored encrypted (bound to the endpoint's ID) and opened here.
 * A secret that does not open (altered, copied from another row, sealed with a key this process lacks) is the
 * endpoint's problem, not the service's: WebhookSecretUnreadableError.
 */
export function endpointOf(row: WebhookEndpointProps, cipher: SecretCipher): WebhookEndpoint {
  try {
    return WebhookEndpoint.restore({
      ...row,
      secret: cipher.open(row.secret, row.id),
      previousSecret: row.previousSecret === null ? null : cipher.open(row.previousSecret, row.id),
    });
  } catch (error) {
    if (error instanceof SecretCipherError) throw new WebhookSecretUnreadableError(row.id);
    throw error;
  }
}

/** Webhook endpoints in PostgreSQL, plain SQL; counters change atomically in the database. Secrets are encrypted at rest. */
@Injectable()
export class SqlWebhookEndpointRepository extends WebhookEndpointRepository {
  constructor(
    private readonly tx: TransactionHost,
    private readonly cipher: SecretCipher,
  ) {
    super();
  }

  /** The row's values, with the secrets sealed. */
  private sealed(endpoint: WebhookEndpoint): WebhookEndpointProps {
    const e = endpoint.snapshot();
    return { ...e, secret: this.cipher.seal(e.secret, e.id), previousSecret: e.previousSecret === null ? null : this.cipher.seal(e.previousSecret, e.id) };
  }

  async resealSecrets(): Promise<number> {
    // Only the rows that need it are locked (every process runs this at start-up); a row another process resealed
    // while this one waited for its lock no longer matches and is skipped.
    const stale = await this.tx.query<{ id: string; secret: string; previousSecret: string | null }>(
      `SELECT id, secret, previous_secret AS "previousSecret" FROM webhook_endpoints
        WHERE left(secret, length($1)) <> $1 OR left(previous_secret, length($1)) <> $1
        ORDER BY id FOR UPDATE`,
      [this.cipher.currentPrefix],
    );
    for (const row of stale) {
      const secret = this.cipher.seal(this.cipher.open(row.secret, row.id), row.id);
      const previous = row.previousSecret === null ? null : this.cipher.seal(this.cipher.open(row.previousSecret, row.id), row.id);
      await this.tx.query('UPDATE webhook_endpoints SET secret = $2, previous_secret = $3 WHERE id = $1', [row.id, secret, previous]);
    }
    return stale.length;
  }

  async insert(endpoint: WebhookEndpoint): Promise<void> {
    const e = this.sealed(endpoint);
    await this.tx.query(
      `INSERT INTO webhook_endpoints (id, url, description, events, enabled, secret, previous_secret, previous_secret_until, failure_count,
         last_success_at, last_failure_at, disabled_at, enabled_at, created_at, updated_at, created_by_scopes, disabled_reason, disabled_message)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
      [
        e.id,
        e.url,
        e.description,
        e.events,
        e.enabled,
        e.secret,
        e.previousSecret,
        e.previousSecretUntil,
        e.failureCount,
        e.lastSuccessAt,
        e.lastFailureAt,
        e.disabledAt,
        e.enabledAt,
        e.createdAt,
        e.updatedAt,
        e.createdByScopes,
        e.disabledReason,
        e.disabledMessage,
      ],
    );
  }

  async update(endpoint: WebhookEndpoint): Promise<void> {
    const e = this.sealed(endpoint);
    await this.tx.query(
      `UPDATE webhook_endpoints SET url = $2, description = $3, events = $4, enabled = $5, secret = $6, previous_secret = $7,
         previous_secret_until = $8, failure_count = $9, disabled_at = $10, enabled_at = $11, updated_at = $12, created_by_scopes = $13,
         disabled_reason = $14, disabled_message = $15
       WHERE id = $1`,
      [
        e.id,
        e.url,
        e.description,
        e.events,
        e.enabled,
        e.secret,
        e.previousSecret,
        e.previousSecretUntil,
        e.failureCount,
        e.disabledAt,
        e.enabledAt,
        e.updatedAt,
        e.createdByScopes,
        e.disabledReason,
        e.disabledMessage,
      ],
    );
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.tx.query<{ id: string }>('DELETE FROM webhook_endpoints WHERE id = $1 RETURNING id', [id]);
    return rows.length > 0;
  }

  async exists(id: string): Promise<boolean> {
    const rows = await this.tx.query<{ id: string }>('SELECT id FROM webhook_endpoints WHERE id = $1', [id]);
    return rows.length > 0;
  }

  async findView(id: string): Promise<WebhookEndpointView | null> {
    const [row] = await this.tx.query<WebhookEndpointFields>(`SELECT ${VIEW_COLUMNS} FROM webhook_endpoints e WHERE e.id = $1`, [id]);
    return row ? webhookEndpointView(row) : null;
  }

  async findForUpdate(id: string): Promise<WebhookEndpoint | null> {
    const [row] = await this.tx.query<WebhookEndpointProps>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e WHERE e.id = $1 FOR UPDATE`, [id]);
    return row ? endpointOf(row, this.cipher) : null;
  }

  async listViews(query: KeysetQuery): Promise<KeysetSlice<WebhookEndpointView>> {
    const slice = await readKeysetRows<WebhookEndpointFields>(
      this.tx,
      { select: `SELECT ${VIEW_COLUMNS} FROM webhook_endpoints e`, alias: 'e', columns: { created_desc: 'e.created_at' } },
      query,
    );
    return { rows: slice.rows.map(webhookEndpointView), hasMore: slice.hasMore };
  }

  async recordFailure(id: string, at: Date): Promise<WebhookEndpoint | null> {
    const [row] = await this.tx.query<WebhookEndpointProps>(
      `UPDATE webhook_endpoints e SET failure_count = failure_count + 1, last_failure_at = GREATEST(last_failure_at, $2)
       WHERE id = $1 RETURNING ${ENDPOINT_COLUMNS}`,
      [id, at],
    );
    return row ? endpointOf(row, this.cipher) : null;
  }

  async disableIfEnabled(id: string, at: Date, cause: DisableCause): Promise<boolean> {
    const rows = await this.tx.query<{ id: string }>(
      `UPDATE webhook_endpoints SET enabled = false, disabled_at = $2, updated_at = $2, disabled_reason = $3, disabled_message = $4
       WHERE id = $1 AND enabled RETURNING id`,
      [id, at, cause.reason, cause.message],
    );
    return rows.length > 0;
  }
}
