import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { AuditLog, type AuditEntry, Principal, UnitOfWork } from '#core';
import { ApiKey, CreateApiKeyUseCase, CreateInitialApiKeyUseCase, ListApiKeysUseCase, RevokeApiKeyUseCase } from '#gateway';
import { CreateWebhookUseCase } from '#webhooks';
import { bearer, startTestApp, TEST_ACTOR, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';
import { eventually } from '../support/eventually.js';
import { outcome } from '../support/outcome.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import type { Delivery, Endpoint } from '../support/webhooks.js';

/**
 * The audit log of key and webhook changes through the JSON API: one entry per change, naming the key and the
 * address the request came from, written in the change's transaction (a change that fails or is rolled back
 * leaves none), never holding a secret. Also: expired and revoked keys get 401 at once.
 */

jest.setTimeout(60_000);

const RECEIVER_ENV = {
  ...NO_LIMITS,
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
  WEBHOOK_RETRY_SCHEDULE: '1',
  WEBHOOK_SWEEP_INTERVAL_MS: '500',
};

/** A receiver path that, like a chat webhook's, is itself a credential: the audit log keeps only the origin. */
const SECRET_PATH = '/services/T0AUDIT/B0AUDIT/pathcredential7Qx';
const SECRET_QUERY = 'token=querycredential9Zy';

interface AuditRow {
  id: string;
  occurred_at: Date;
  actor_kind: string;
  actor_id: string | null;
  actor_label: string | null;
  ip: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  details: Record<string, unknown>;
}

describe('audit log', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let db: pg.Client;
  let manager: { id: string; plain: string };
  /** Every secret the suite has seen: keys, signing secrets, URL credentials. */
  const secrets: string[] = [SECRET_PATH.split('/').at(-1)!, SECRET_QUERY.split('=')[1]!];

  async function entries(where = 'true', params: unknown[] = []): Promise<AuditRow[]> {
    const { rows } = await db.query<AuditRow>(`SELECT * FROM audit_log WHERE ${where} ORDER BY occurred_at, id`, params);
    return rows;
  }

  async function entriesOf(targetId: string): Promise<AuditRow[]> {
    return entries('target_id = $1', [targetId]);
  }

  async function count(): Promise<number> {
    return (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0]!.n;
  }

  async function mintKey(name: string, scopes: string[], expiresAt: Date | null = null): Promise<{ id: string; plain: string }> {
    const created = await t.app.get(CreateApiKeyUseCase).execute({ name, scopes, expiresAt }, TEST_ACTOR);
    secrets.push(created.plain, created.key.props.keyHash);
    return { id: created.key.id, plain: created.plain };
  }

  /** The actor columns of an entry made with `key` over HTTP from this process. */
  function byKey(key: { id: string }): Partial<AuditRow> {
    return { actor_kind: 'api_key', actor_id: key.id, actor_label: null, ip: expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$/) as unknown as string };
  }

  async function createEndpoint(path = SECRET_PATH): Promise<Endpoint> {
    const res = await t.http
      .post('/v1/webhooks')
      .set(bearer(manager.plain))
      .send({ url: `${receiver.url(path)}?${SECRET_QUERY}`, events: ['section.created'], description: 'Audit trail' });
    expect(outcome(res)).toMatchObject({ status: 201 });
    secrets.push((res.body as Endpoint).secret!);
    return res.body as Endpoint;
  }

  beforeAll(async () => {
    [receiver, t] = await Promise.all([startReceiver(), startTestApp({ env: RECEIVER_ENV })]);
    db = new pg.Client({ connectionString: t.databaseUrl! });
    await db.connect();
  });

  afterAll(async () => {
    // Whatever the suite did, no entry holds a secret in any column.
    if (db) {
      const { rows } = await db.query<{ row: string }>('SELECT to_jsonb(a)::text AS row FROM audit_log a');
      expect(rows.length).toBeGreaterThan(0);
      for (const { row } of rows) for (const secret of secrets) expect(row).not.toContain(secret);
    }
    await db?.end();
    await t?.close();
    await receiver?.close();
  });

  describe('API keys', () => {
    it('the initial key is created by the system, and so recorded', async () => {
      const initial = await t.app.get(CreateInitialApiKeyUseCase).execute();
      expect(initial).not.toBeNull();
      secrets.push(initial!.plain);
      expect(initial!.key.props.createdBy).toBe('system');
      expect(await entriesOf(initial!.key.id)).toEqual([
        expect.objectContaining({ actor_kind: 'system', actor_id: null, actor_label: null, ip: null, action: 'api_key.created', target_type: 'api_key' }),
      ]);
    });

    it('a created key names its creator and is recorded once, with what it may do but never the key or its hash', async () => {
      manager = await mintKey('audit manager', ['webhooks:manage', 'content:read']);
      const [key] = (await t.app.get(ListApiKeysUseCase).execute()).filter((k) => k.id === manager.id);
      expect(key!.props.createdBy).toBe(TEST_ACTOR.label);
      expect(await entriesOf(manager.id)).toEqual([
        {
          id: expect.stringMatching(/^aud_[0-9A-HJKMNP-TV-Z]{26}$/),
          occurred_at: expect.any(Date),
          actor_kind: 'cli',
          actor_id: null,
          actor_label: TEST_ACTOR.label,
          ip: null,
          action: 'api_key.created',
          target_type: 'api_key',
          target_id: manager.id,
          details: { name: 'audit manager', lastFour: manager.plain.slice(-4), scopes: ['webhooks:manage', 'content:read'], expiresAt: null },
        },
      ]);
    });

    it('a key refused for an expiry in the past is not created and not recorded', async () => {
      const before = await count();
      await expect(
        t.app.get(CreateApiKeyUseCase).execute({ name: 'late', scopes: ['content:read'], expiresAt: new Date(Date.now() - 1000) }, TEST_ACTOR),
      ).rejects.toMatchObject({ code: 'invalid_request', details: [{ field: 'expires_at', message: 'expires_at must be in the future' }] });
      expect(await count()).toBe(before);
      expect((await t.app.get(ListApiKeysUseCase).execute()).map((k) => k.props.name)).not.toContain('late');
    });

    it('a key gets 401 once its expiry has passed, the same answer as a revoked key', async () => {
      const expiresAt = new Date(Date.now() + 1500);
      const key = await mintKey('short-lived', ['content:read'], expiresAt);
      expect((await entriesOf(key.id))[0]!.details).toMatchObject({ expiresAt: expiresAt.toISOString() });
      await t.http.get('/v1/sections').set(bearer(key.plain)).expect(200);
      const expired = await eventually(async () => {
        const res = await t.http.get('/v1/sections').set(bearer(key.plain));
        return res.status === 401 ? res : undefined;
      }, 'the key to expire', 5000);
      expect(Date.now()).toBeGreaterThanOrEqual(expiresAt.getTime());

      const revoked = await mintKey('revoked', ['content:read']);
      await t.app.get(RevokeApiKeyUseCase).execute(revoked.id, TEST_ACTOR);
      const refused = await t.http.get('/v1/sections').set(bearer(revoked.plain));
      const answer = (res: typeof refused) => ({ status: res.status, code: (res.body as { code: string }).code, error: (res.body as { error: string }).error });
      expect(answer(expired)).toEqual(answer(refused));
      expect(answer(expired)).toEqual({ status: 401, code: 'unauthorized', error: 'The API key is invalid, expired or revoked' });
      expect(expired.headers['www-authenticate']).toBe(refused.headers['www-authenticate']);
    });

    it('a key whose expiry was set in the past in the database gets 401 on its very next request, bodies included', async () => {
      const key = await mintKey('expired in db', ['content:read', 'content:write']);
      await t.http.get('/v1/sections').set(bearer(key.plain)).expect(200);
      await db.query("UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1", [key.id]);
      expect(outcome(await t.http.get('/v1/sections').set(bearer(key.plain)))).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
      // A request with a body is authenticated before the body is read (JsonBodyMiddleware): refused as well.
      expect(outcome(await t.http.post('/v1/sections').set(bearer(key.plain)).send({ name: 'x' }))).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    });

    it('a revoked key gets 401 on the very next request, on every API process; the revocation is recorded once', async () => {
      const key = await mintKey('to revoke', ['content:read']);
      const other = await startTestApp({ databaseUrl: t.databaseUrl!, env: RECEIVER_ENV });
      try {
        await t.http.get('/v1/sections').set(bearer(key.plain)).expect(200);
        await other.http.get('/v1/sections').set(bearer(key.plain)).expect(200);
        await t.app.get(RevokeApiKeyUseCase).execute(key.id, TEST_ACTOR);
        expect((await t.http.get('/v1/sections').set(bearer(key.plain))).status).toBe(401);
        expect((await other.http.get('/v1/sections').set(bearer(key.plain))).status).toBe(401);
      } finally {
        await other.close();
      }
      await t.app.get(RevokeApiKeyUseCase).execute(key.id, TEST_ACTOR);
      expect((await entriesOf(key.id)).map((e) => e.action)).toEqual(['api_key.created', 'api_key.revoked']);
    });

    it('the hash of a key is what is stored, and it is in no audit entry', async () => {
      const { rows } = await db.query<{ details: string }>("SELECT details::text AS details FROM audit_log WHERE target_type = 'api_key'");
      expect(rows.length).toBeGreaterThan(0);
      for (const { details } of rows) expect(details).not.toContain(ApiKey.hash(manager.plain));
    });
  });

  describe('webhook endpoints through the JSON API', () => {
    let endpoint: Endpoint;

    it('create writes one entry: the key, its address, the URL origin and events, no secret', async () => {
      endpoint = await createEndpoint();
      expect(await entriesOf(endpoint.id)).toEqual([
        expect.objectContaining({
          ...byKey(manager),
          action: 'webhook.created',
          target_type: 'webhook_endpoint',
          details: { urlOrigin: receiver.origin, events: ['section.created'], description: 'Audit trail' },
        }),
      ]);
    });

    it('update writes one entry naming what changed', async () => {
      const res = await t.http.patch(`/v1/webhooks/${endpoint.id}`).set(bearer(manager.plain)).send({ events: ['section.created', 'collection.created'] });
      expect(outcome(res)).toMatchObject({ status: 200 });
      const [, updated, ...rest] = await entriesOf(endpoint.id);
      expect(rest).toEqual([]);
      expect(updated).toEqual(
        expect.objectContaining({ ...byKey(manager), action: 'webhook.updated', details: expect.objectContaining({ changed: ['events'], events: ['section.created', 'collection.created'] }) }),
      );
    });

    it('rotate writes one entry without either secret', async () => {
      const res = await t.http.post(`/v1/webhooks/${endpoint.id}/secret/rotate`).set(bearer(manager.plain));
      expect(outcome(res)).toMatchObject({ status: 200 });
      secrets.push((res.body as { secret: string }).secret);
      const rotated = (await entriesOf(endpoint.id)).filter((e) => e.action === 'webhook.secret_rotated');
      expect(rotated).toEqual([expect.objectContaining({ ...byKey(manager), details: { gracePeriodEndsAt: expect.any(String) } })]);
    });

    it('send test and retry write one entry each, naming the delivery', async () => {
      const res = await t.http.post(`/v1/webhooks/${endpoint.id}/test`).set(bearer(manager.plain));
      expect(outcome(res)).toMatchObject({ status: 202 });
      const deliveryId = (res.body as { delivery_id: string }).delivery_id;
      await eventually(async () => {
        const d = (await t.http.get(`/v1/webhooks/${endpoint.id}/deliveries/${deliveryId}`).set(bearer(manager.plain))).body as Delivery;
        return d.status === 'success';
      }, 'the test delivery to succeed');
      const retried = await t.http.post(`/v1/webhooks/${endpoint.id}/deliveries/${deliveryId}/retry`).set(bearer(manager.plain));
      expect(outcome(retried)).toMatchObject({ status: 202 });
      const mine = (await entriesOf(endpoint.id)).filter((e) => e.action === 'webhook.test_sent' || e.action === 'webhook.delivery_retried');
      expect(mine).toEqual([
        expect.objectContaining({ ...byKey(manager), action: 'webhook.test_sent', details: { deliveryId } }),
        expect.objectContaining({ ...byKey(manager), action: 'webhook.delivery_retried', details: { deliveryId } }),
      ]);
    });

    it('disable and enable write one entry each; doing either again changes nothing and writes nothing', async () => {
      const before = (await entriesOf(endpoint.id)).length;
      for (const path of ['disable', 'disable', 'enable', 'enable']) {
        expect(outcome(await t.http.post(`/v1/webhooks/${endpoint.id}/${path}`).set(bearer(manager.plain)))).toMatchObject({ status: 200 });
      }
      const after = await entriesOf(endpoint.id);
      expect(after.slice(before).map((e) => [e.action, e.actor_id])).toEqual([
        ['webhook.disabled', manager.id],
        ['webhook.enabled', manager.id],
      ]);
    });

    it('failed requests write nothing: unknown endpoint or delivery, refused scope, invalid body', async () => {
      const hooksOnly = await mintKey('hooks only', ['webhooks:manage']);
      const before = await count();
      const unknown = 'whep_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';
      const refusals: Array<[number, Promise<{ status: number }>]> = [
        [404, t.http.delete(`/v1/webhooks/${unknown}`).set(bearer(manager.plain))],
        [404, t.http.post(`/v1/webhooks/${unknown}/secret/rotate`).set(bearer(manager.plain))],
        [404, t.http.post(`/v1/webhooks/${unknown}/test`).set(bearer(manager.plain))],
        [404, t.http.post(`/v1/webhooks/${unknown}/enable`).set(bearer(manager.plain))],
        [404, t.http.post(`/v1/webhooks/${endpoint.id}/deliveries/whdl_01JD3Q7W6S1X0Y2Z3A4B5C6D7E/retry`).set(bearer(manager.plain))],
        // The endpoint's events include collection.created, which needs content:read: this key may not choose them.
        [403, t.http.patch(`/v1/webhooks/${endpoint.id}`).set(bearer(hooksOnly.plain)).send({ events: ['collection.created'] })],
        [400, t.http.post('/v1/webhooks').set(bearer(manager.plain)).send({ url: 'ftp://example.com', events: ['*'] })],
        [403, t.http.post('/v1/webhooks').set(bearer(hooksOnly.plain)).send({ url: receiver.url('/denied'), events: ['section.created'] })],
      ];
      for (const [status, request] of refusals) expect((await request).status).toBe(status);
      expect(await count()).toBe(before);
    });

    it('a change whose audit entry cannot be written is rolled back: the entry comes with the change or not at all', async () => {
      const [row] = (await db.query<{ previous_secret: string | null; updated_at: Date }>('SELECT previous_secret, updated_at FROM webhook_endpoints WHERE id = $1', [endpoint.id])).rows;
      const before = await count();
      await db.query("ALTER TABLE audit_log ADD CONSTRAINT audit_test_refuses_rotation CHECK (action <> 'webhook.secret_rotated') NOT VALID");
      try {
        const res = await t.http.post(`/v1/webhooks/${endpoint.id}/secret/rotate`).set(bearer(manager.plain));
        expect(res.status).toBe(500);
        expect(JSON.stringify(res.body)).not.toMatch(/whsec_/);
      } finally {
        await db.query('ALTER TABLE audit_log DROP CONSTRAINT audit_test_refuses_rotation');
      }
      const [after] = (await db.query<{ previous_secret: string | null; updated_at: Date }>('SELECT previous_secret, updated_at FROM webhook_endpoints WHERE id = $1', [endpoint.id])).rows;
      expect(after).toEqual(row);
      expect(await count()).toBe(before);
    });

    it('a change rolled back after its use case ran leaves neither the change nor its entry', async () => {
      const before = await count();
      const endpoints = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoints')).rows[0]!.n;
      await expect(
        t.app.get(UnitOfWork).run(async () => {
          await t.app.get(CreateWebhookUseCase).execute({ url: receiver.url('/rolled-back'), events: ['section.created'] }, new Principal(manager.id, ['webhooks:manage', 'content:read']));
          throw new Error('later step failed');
        }),
      ).rejects.toThrow('later step failed');
      expect(await count()).toBe(before);
      expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoints')).rows[0]!.n).toBe(endpoints);
    });

    it('delete writes one entry, and the entries outlive the endpoint', async () => {
      const res = await t.http.delete(`/v1/webhooks/${endpoint.id}`).set(bearer(manager.plain));
      expect(outcome(res)).toMatchObject({ status: 200 });
      const all = await entriesOf(endpoint.id);
      expect(all.at(-1)).toEqual(expect.objectContaining({ ...byKey(manager), action: 'webhook.deleted', details: { urlOrigin: receiver.origin, events: ['section.created', 'collection.created'] } }));
      expect(all.map((e) => e.action)).toEqual([
        'webhook.created',
        'webhook.updated',
        'webhook.secret_rotated',
        'webhook.test_sent',
        'webhook.delivery_retried',
        'webhook.disabled',
        'webhook.enabled',
        'webhook.deleted',
      ]);
    });

    it('an endpoint disabled automatically (410 Gone) is recorded by the system, with the reason', async () => {
      const gone = await createEndpoint('/gone');
      receiver.respond('/gone', { status: 410 });
      const test = await t.http.post(`/v1/webhooks/${gone.id}/test`).set(bearer(manager.plain));
      expect(outcome(test)).toMatchObject({ status: 202 });
      const entry = await eventually(async () => (await entriesOf(gone.id)).find((e) => e.action === 'webhook.auto_disabled'), 'the endpoint to be auto-disabled');
      expect(entry).toEqual(
        expect.objectContaining({
          actor_kind: 'system',
          actor_id: null,
          actor_label: null,
          ip: null,
          target_type: 'webhook_endpoint',
          details: expect.objectContaining({ reason: 'gone', message: 'Disabled at once: the receiver answered HTTP 410 Gone.', responseStatus: 410, deliveryId: (test.body as { delivery_id: string }).delivery_id }),
        }),
      );
      expect((await entriesOf(gone.id)).filter((e) => e.action === 'webhook.auto_disabled')).toHaveLength(1);
    });
  });

  describe('reading the log', () => {
    it('lists newest first, cursor-paginated, every entry once', async () => {
      const all = await entries();
      const seen: AuditEntry[] = [];
      let cursor: string | undefined;
      do {
        const page = await t.app.get(AuditLog).list({ pageSize: 3, startCursor: cursor });
        expect(page.results.length).toBeLessThanOrEqual(3);
        seen.push(...page.results);
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      expect(seen.map((e) => e.id)).toEqual(all.map((e) => e.id).reverse());
      const newest = seen[0]!;
      const row = all.at(-1)!;
      expect(newest).toEqual({
        id: row.id,
        occurredAt: row.occurred_at,
        actor: { kind: row.actor_kind, id: row.actor_id, label: row.actor_label, ip: row.ip },
        action: row.action,
        targetType: row.target_type,
        targetId: row.target_id,
        details: row.details,
      });
    });

    it('refuses a cursor of another list', async () => {
      await expect(t.app.get(AuditLog).list({ startCursor: 'e30.abc' })).rejects.toMatchObject({ code: 'invalid_cursor' });
    });

    it('refuses details whose names suggest a secret, writing nothing', async () => {
      const before = await count();
      await expect(t.app.get(AuditLog).record(TEST_ACTOR, { action: 'x.y', targetType: 'x', targetId: null, details: { signingSecret: 'whsec_x' } })).rejects.toThrow(/looks like a secret/);
      expect(await count()).toBe(before);
    });
  });
});
