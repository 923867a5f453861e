import { createHash, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { Clock, newId } from '#core';
import { CreateApiKeyUseCase, PruneIdempotencyKeysUseCase } from '#gateway';
import { bearer, startTestApp, TEST_ACTOR, type TestApp } from '../support/app.js';
import { errorBody } from '../support/errors.js';
import { polling } from '../support/eventually.js';

jest.setTimeout(60_000);

const eventually = polling({ timeoutMs: 20_000, intervalMs: 20 });

const RESOURCES = [
  { path: '/v1/sections', table: 'sections', body: (name: string) => ({ name }), other: (name: string) => ({ name, position: 99 }) },
  { path: '/v1/collections', table: 'collections', body: (title: string) => ({ title }), other: (title: string) => ({ title, subtitle: 'different' }) },
] as const;

describe('Idempotency-Key on POST', () => {
  let t: TestApp;
  let key: string;
  let keyId: string;
  let sql: pg.Client;

  beforeAll(async () => {
    t = await startTestApp();
    const created = await t.app.get(CreateApiKeyUseCase).execute({ name: 'idempotency', scopes: ['content:read', 'content:write'] }, TEST_ACTOR);
    key = created.plain;
    keyId = created.key.id;
    sql = new pg.Client({ connectionString: t.databaseUrl! });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
    await t?.close();
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  function post(path: string, body: object, idempotencyKey: string | undefined, apiKey = key) {
    const request = t.http.post(path).set(bearer(apiKey));
    if (idempotencyKey !== undefined) request.set('Idempotency-Key', idempotencyKey);
    return request.send(body);
  }

  async function count(table: string, column: string, value: string): Promise<number> {
    const { rows } = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`, [value]);
    return rows[0]!.n;
  }

  async function record(idempotencyKey: string): Promise<Array<{ owner: string; response_status: number | null }>> {
    const { rows } = await sql.query<{ owner: string; response_status: number | null }>(
      'SELECT owner, response_status FROM idempotency_keys WHERE key = $1',
      [idempotencyKey],
    );
    return rows;
  }

  describe.each(RESOURCES)('POST $path', ({ path, table, body, other }) => {
    const column = table === 'sections' ? 'name' : 'title';

    it('replays the first response for the same key and body, creating one row only', async () => {
      const idem = randomUUID();
      const label = `Replay ${idem}`;
      const first = await post(path, body(label), idem);
      expect(first.status).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();

      const second = await post(path, body(label), idem);
      expect(second.status).toBe(first.status);
      expect(second.body).toEqual(first.body);
      expect(second.headers['idempotent-replayed']).toBe('true');

      const third = await post(path, body(label), idem);
      expect(third.body).toEqual(first.body);
      expect(await count(table, column, label)).toBe(1);
      expect(await record(idem)).toEqual([expect.objectContaining({ response_status: 201 })]);
    });

    it('treats a body with the same fields in another order as the same request', async () => {
      const idem = randomUUID();
      const label = `Order ${idem}`;
      const fields = other(label) as Record<string, unknown>;
      const reversed = Object.fromEntries(Object.entries(fields).reverse());
      const first = await post(path, fields, idem).expect(201);
      const again = await post(path, reversed, idem).expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(await count(table, column, label)).toBe(1);
    });

    it('answers 422 idempotency_key_reused for the same key with a different body', async () => {
      const idem = randomUUID();
      const label = `Reused ${idem}`;
      await post(path, body(label), idem).expect(201);
      const res = await post(path, other(label), idem);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(errorBody('idempotency_key_reused'));
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      expect(await count(table, column, label)).toBe(1);
    });

    it('keeps keys per API key: another key may use the same Idempotency-Key', async () => {
      const idem = randomUUID();
      const label = `PerKey ${idem}`;
      const otherKey = await t.key(['content:write']);
      const mine = await post(path, body(label), idem).expect(201);
      const theirs = await post(path, body(label), idem, otherKey).expect(201);
      expect(theirs.headers['idempotent-replayed']).toBeUndefined();
      expect(theirs.body.id).not.toBe(mine.body.id);
      expect(await count(table, column, label)).toBe(2);
      expect(await record(idem)).toHaveLength(2);
    });

    it('stores nothing for a failed request (400), so the key can be used again', async () => {
      const idem = randomUUID();
      const label = `AfterFailure ${idem}`;
      const invalid = table === 'sections' ? { name: '' } : { title: '' };
      const failed = await post(path, invalid, idem);
      expect(failed.status).toBe(400);
      expect(failed.body.code).toBe('invalid_request');
      expect(await record(idem)).toEqual([]);

      const retried = await post(path, body(label), idem);
      expect(retried.status).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect(await count(table, column, label)).toBe(1);
    });

    it('answers 409 idempotency_key_in_use while the first request is still running', async () => {
      const idem = randomUUID();
      const label = `InFlight ${idem}`;
      // Hold the table so the first request's INSERT waits (it has claimed the key by then).
      const blocker = new pg.Client({ connectionString: t.databaseUrl! });
      await blocker.connect();
      let firstRequest: Promise<{ status: number; body: { id: string } }> | undefined;
      try {
        await blocker.query('BEGIN');
        await blocker.query(`LOCK TABLE ${table} IN SHARE MODE`);
        firstRequest = post(path, body(label), idem).then((res) => ({ status: res.status, body: res.body }));
        await eventually(async () => {
          const { rows } = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE relation = $1::regclass AND NOT granted`, [table]);
          return rows[0]!.n > 0;
        }, 'the first request to wait for the table lock');
        expect(await record(idem)).toEqual([expect.objectContaining({ response_status: null })]);

        const duplicate = await post(path, body(label), idem);
        expect(duplicate.status).toBe(409);
        expect(duplicate.body).toEqual(errorBody('idempotency_key_in_use'));
        // A different request under the same key is still a misuse of the key.
        expect((await post(path, other(label), idem)).status).toBe(422);
      } finally {
        await blocker.query('ROLLBACK').catch(() => undefined);
        await blocker.end();
      }
      const first = await firstRequest!;
      expect(first.status).toBe(201);
      const replay = await post(path, body(label), idem).expect(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(first.body);
      expect(await count(table, column, label)).toBe(1);
    });
  });

  it('fingerprints the path too: the same key and body on another endpoint is 422', async () => {
    const idem = randomUUID();
    await post('/v1/sections', { title: 'x' }, idem).expect(400);
    await post('/v1/sections', { name: `Path ${idem}` }, idem).expect(201);
    const res = await post('/v1/collections', { name: `Path ${idem}` }, idem);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('idempotency_key_reused');
  });

  it('stores nothing for a request the use case refuses (unknown section: 400; shortId taken: 409)', async () => {
    const idem = randomUUID();
    const unknown = await post('/v1/collections', { title: `Nowhere ${idem}`, sectionId: newId('sect') }, idem);
    expect(unknown.status).toBe(400);
    expect(await record(idem)).toEqual([]);

    const shortId = `taken-${idem.slice(0, 8)}`;
    await post('/v1/collections', { title: `Holder ${idem}`, shortId }, undefined).expect(201);
    const conflict = await post('/v1/collections', { title: `Clash ${idem}`, shortId }, idem);
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('conflict');
    expect(await record(idem)).toEqual([]);

    const retried = await post('/v1/collections', { title: `Somewhere ${idem}` }, idem);
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  it('lets a request take over a claim abandoned by a request that died (over 5 min without a response)', async () => {
    const idem = randomUUID();
    const stale = new Date(Date.now() - 6 * 60_000);
    const owner = keyId;
    await sql.query("INSERT INTO idempotency_keys (owner, key, fingerprint, created_at) VALUES ($1, $2, 'dead', $3)", [owner, idem, stale]);
    const res = await post('/v1/sections', { name: `Takeover ${idem}` }, idem);
    expect(res.status).toBe(201);
    expect(await record(idem)).toEqual([expect.objectContaining({ response_status: 201 })]);

    // A recent claim of the same request, without a response, is still in flight.
    const fresh = randomUUID();
    const body = { name: `Busy ${fresh}` };
    const fingerprint = createHash('sha256').update(`POST /v1/sections\n${JSON.stringify(body)}`).digest('hex');
    await sql.query('INSERT INTO idempotency_keys (owner, key, fingerprint, created_at) VALUES ($1, $2, $3, now())', [owner, fresh, fingerprint]);
    const busy = await post('/v1/sections', body, fresh);
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('idempotency_key_in_use');
  });

  it('frees a key after 24 h, and PruneIdempotencyKeysUseCase deletes the old records', async () => {
    const clock = jest.spyOn(t.app.get(Clock), 'now');
    const start = new Date('2031-02-01T08:00:00.000Z');
    const old = randomUUID();
    const recent = randomUUID();
    clock.mockReturnValue(start);
    const first = await post('/v1/sections', { name: `Day one ${old}` }, old).expect(201);
    clock.mockReturnValue(new Date(start.getTime() + 23 * 3600_000));
    await post('/v1/sections', { name: `Day one later ${recent}` }, recent).expect(201);

    // Just before 24 h the key is still taken...
    clock.mockReturnValue(new Date(start.getTime() + 24 * 3600_000 - 1_000));
    expect((await post('/v1/sections', { name: `Day two ${old}` }, old)).status).toBe(422);
    const replay = await post('/v1/sections', { name: `Day one ${old}` }, old).expect(201);
    expect(replay.body).toEqual(first.body);

    // ...and once prune runs past 24 h, only the record older than 24 h goes.
    clock.mockReturnValue(new Date(start.getTime() + 24 * 3600_000 + 1_000));
    const removed = await t.app.get(PruneIdempotencyKeysUseCase).execute();
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await record(old)).toEqual([]);
    expect(await record(recent)).toHaveLength(1);

    // Past 24 h the key is free again, even for a different body (without prune having run as well).
    const later = randomUUID();
    clock.mockReturnValue(start);
    await post('/v1/sections', { name: `Before ${later}` }, later).expect(201);
    clock.mockReturnValue(new Date(start.getTime() + 24 * 3600_000 + 1_000));
    const reused = await post('/v1/sections', { name: `After ${later}` }, later);
    expect(reused.status).toBe(201);
    expect(reused.headers['idempotent-replayed']).toBeUndefined();
    expect(await count('sections', 'name', `After ${later}`)).toBe(1);
  });

  it.each([
    ['300 characters', 'k'.repeat(300)],
    ['a space', 'has space'],
    ['non-ASCII', 'clé'],
  ])('rejects an invalid Idempotency-Key (%s) with 400 and creates nothing', async (_label, idem) => {
    const name = `Invalid key ${randomUUID()}`;
    const res = await post('/v1/sections', { name }, idem);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(await count('sections', 'name', name)).toBe(0);
  });

  it('accepts a 255-character key', async () => {
    await post('/v1/sections', { name: `Long key ${randomUUID()}` }, 'k'.repeat(255)).expect(201);
  });

  it('ignores the header on GET', async () => {
    const idem = randomUUID();
    await t.http.get('/v1/sections').set(bearer(key)).set('Idempotency-Key', idem).expect(200);
    await t.http.get('/v1/sections').set(bearer(key)).set('Idempotency-Key', idem).expect(200);
    expect(await record(idem)).toEqual([]);
  });
});
