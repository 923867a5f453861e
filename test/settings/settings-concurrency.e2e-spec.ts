import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { ListApiKeysUseCase } from '#gateway';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';
import { createAdmin, csrfOf, SettingsClient, signedInClient } from '../support/settings.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

jest.setTimeout(120_000);

/**
 * The developer settings with many admins at once: 16 requests at a time from 8 signed-in admins, each reading their
 * own account page and creating keys through the form. Every answer is the asking admin's own (their email, their
 * sessions, the key they named, created by them); a CSRF token from one admin's page does not work with another
 * admin's session; an API key opens no settings page.
 */
describe('developer settings under concurrent admins', () => {
  const ADMINS = 8;
  const ROUNDS = 6;
  let t: TestApp;
  let admins: Array<{ email: string; client: SettingsClient }>;

  beforeAll(async () => {
    t = await startTestApp({ env: { ...NO_LIMITS, PUBLIC_URL: 'http://localhost' } });
    admins = await Promise.all(
      Array.from({ length: ADMINS }, async (_, i) => {
        const email = `admin${i}.${process.pid}@example.com`;
        await createAdmin(t, email, `Admin ${i}`);
        return { email, client: await signedInClient(t, email, undefined, `192.0.2.${20 + i}`) };
      }),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('16 requests at a time: each admin sees only their own account and creates keys in their own name', async () => {
    const wrong: string[] = [];
    const work = Array.from({ length: ADMINS * ROUNDS * 2 }, (_, n) => ({ n, i: n % ADMINS, kind: n % 2 === 0 ? 'account' : 'key' }));
    let next = 0;
    const worker = async () => {
      while (next < work.length) {
        const { n, i, kind } = work[next++]!;
        const { email, client } = admins[i]!;
        const others = admins.filter((_, j) => j !== i).map((a) => a.email);
        if (kind === 'account') {
          const res = await client.get('/settings/account');
          if (res.status !== 200 || !res.text.includes(email) || others.some((other) => res.text.includes(other))) wrong.push(`account ${i}: ${res.status}`);
        } else {
          const page = await client.get('/settings/keys/new');
          const name = `key ${i}-${n}`;
          const created = await client.post('/settings/keys/new', { _csrf: csrfOf(page.text), name, scopes: ['content:read'] });
          if (created.status !== 201 || !created.text.includes(name)) wrong.push(`key ${i}-${n}: ${created.status}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect(wrong).toEqual([]);

    const keys = await t.app.get(ListApiKeysUseCase).execute();
    const made = keys.filter((key) => key.props.name.startsWith('key '));
    expect(made).toHaveLength(ADMINS * ROUNDS);
    for (const key of made) {
      const owner = Number(/^key (\d+)-/.exec(key.props.name)![1]);
      expect({ name: key.props.name, createdBy: key.props.createdBy }).toEqual({ name: key.props.name, createdBy: admins[owner]!.email });
    }
  });

  it("one admin's CSRF token does not work with another admin's session", async () => {
    const [first, second] = admins;
    const page = await first!.client.get('/settings/keys/new');
    const res = await second!.client.post('/settings/keys/new', { _csrf: csrfOf(page.text), name: 'crossed', scopes: ['content:read'] });
    expect(res.status).toBe(403);
    expect((await t.app.get(ListApiKeysUseCase).execute()).some((key) => key.props.name === 'crossed')).toBe(false);
  });

  it('an API key opens no settings page: it is sent to sign in', async () => {
    const key = await t.key(null);
    for (const path of ['/settings/keys', '/settings/webhooks', '/settings/audit', '/settings/admins', '/settings/account']) {
      const res = await t.http.get(path).set(bearer(key));
      expect({ path, status: res.status, location: res.headers['location'] }).toEqual({ path, status: 303, location: expect.stringMatching(/^\/settings\/sign-in/) });
    }
  });
});

/**
 * Scale-out: two API processes on one PostgreSQL database with jobs on Redis. A session started on one works on the
 * other and ends on both at sign-out; a test event sent from the settings is delivered through the BullMQ queue.
 */
describe('developer settings on PostgreSQL + Redis, two API processes', () => {
  const env = { ...NO_LIMITS, PUBLIC_URL: 'http://localhost', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' };
  let a: TestApp;
  let b: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    a = await startTestApp({ redis: true, env });
    b = await startTestApp({ databaseUrl: a.databaseUrl!, redisPrefix: a.redisPrefix!, env });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await receiver?.close();
  });

  it('a session from process A works on B and ends on both at sign-out; a test event goes through the queue', async () => {
    const email = `scaled.${process.pid}@example.com`;
    await createAdmin(a, email, 'Scaled');
    const onA = await signedInClient(a, email);
    const onB = new SettingsClient(b);
    onB.cookies.set(...([...onA.cookies][0]!));
    expect((await onB.get('/settings/account')).text).toContain(email);

    const created = await onB.submit('/settings/webhooks/new', { url: receiver.url('/scaled'), events: ['webhook.test'] });
    expect(created.status).toBe(201);
    const id = /\/settings\/webhooks\/(whep_[^"/?#]+)/.exec(created.text)![1]!;
    const detail = await onA.get(`/settings/webhooks/${id}`);
    expect((await onA.post(`/settings/webhooks/${id}/test`, { _csrf: csrfOf(detail.text) })).status).toBe(303);
    expect((await receiver.waitFor((r) => r.path === '/scaled')).json<{ type: string }>().type).toBe('webhook.test');

    const account = await onA.get('/settings/account');
    expect((await onA.post('/settings/sign-out', { _csrf: csrfOf(account.text) })).status).toBe(303);
    const after = await onB.get('/settings/account');
    expect(after.status).toBe(303);
    expect(after.headers['location']).toMatch(/^\/settings\/sign-in/);
  });
});
