import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { Response } from 'supertest';
import { ListAdminsUseCase, ListAuditEntriesUseCase, SESSION_COOKIE } from '#admin';
import { type AuditEntry, createLogger } from '#core';
import { ListApiKeysUseCase } from '#gateway';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';
import {
  createAdmin,
  csrfOf,
  GOOD_PASSWORD,
  issueSetupToken,
  setCookiesOf,
  SettingsClient,
  signedInClient,
} from '../support/settings.js';
import { uniqueEmail } from '../support/unique.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * The developer settings over HTTP (the browser suite drives the same pages in Chromium): the setup link, signing
 * in (cookie flags, throttling, no enumeration), CSRF refusals, the headers of every page, keys shown once, audit
 * entries, admins (a removed admin's session ends at once; never the last one), one's own account, session expiry,
 * and logs that never carry a key, a secret or the setup token.
 */

/** Plain http on the machine itself: cookies without Secure. */
const PUBLIC_URL = 'http://localhost';
const CSRF_MESSAGE = 'This form expired or came from another site; reload and try again.';
const BAD_CREDENTIALS = 'Email or password is incorrect.';

let t: TestApp;
let receiver: WebhookReceiver;
let sql: pg.Client;
const logLines: string[] = [];
/** Signed in as the first admin (made with the setup link). */
let admin: SettingsClient;
const FIRST_ADMIN = 'ada@example.com';

beforeAll(async () => {
  receiver = await startReceiver();
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  t = await startTestApp({
    env: { ...NO_LIMITS, PUBLIC_URL, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' },
    logger: createLogger('info', logStream),
  });
  sql = new pg.Client({ connectionString: t.databaseUrl! });
  await sql.connect();
});

afterAll(async () => {
  await sql?.end();
  await t?.close();
  await receiver?.close();
});

function expectSettingsHeaders(res: Response, what: string): void {
  const headers = {
    cacheControl: res.headers['cache-control'],
    frameOptions: res.headers['x-frame-options'],
    nosniff: res.headers['x-content-type-options'],
    referrer: res.headers['referrer-policy'],
  };
  expect({ what, ...headers }).toEqual({ what, cacheControl: 'no-store', frameOptions: 'DENY', nosniff: 'nosniff', referrer: 'same-origin' });
  const csp = String(res.headers['content-security-policy']);
  for (const directive of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'"]) {
    expect({ what, csp, has: csp.includes(directive) }).toEqual({ what, csp, has: true });
  }
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('unsafe-eval');
}

/** Audit entries, newest first (through the use case the audit page uses). */
async function auditEntries(): Promise<AuditEntry[]> {
  return (await t.app.get(ListAuditEntriesUseCase).execute({ pageSize: 100 })).results;
}

/** The page's text without tags, for readable assertions. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;|&rsquo;|’/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe('the setup link', () => {
  let token: string;

  beforeAll(async () => {
    token = await issueSetupToken(t);
  });

  it('an unknown token is a 404 page that says what to do instead', async () => {
    const res = await new SettingsClient(t).get('/settings/setup?token=not-a-real-token');
    expect(res.status).toBe(404);
    expectSettingsHeaders(res, 'setup 404');
    expect(textOf(res.text)).toContain("This setup link can't be used");
    expect(res.text).not.toContain('name="password"');
  });

  it('shows the form, refuses weak or mismatched passwords, then creates the first admin and signs them in', async () => {
    const client = new SettingsClient(t);
    const page = await client.get(`/settings/setup?token=${token}`);
    expect(page.status).toBe(200);
    expectSettingsHeaders(page, 'setup');
    // The pre-session CSRF cookie the form repeats.
    const csrfCookie = setCookiesOf(page).find((c) => c.name === 'hc_csrf')!;
    expect(csrfCookie.attributes.get('samesite')).toBe('Strict');
    expect(csrfCookie.attributes.has('httponly')).toBe(true);
    expect(csrfCookie.value).toBe(csrfOf(page.text));
    // The token goes in the body, not in the form's URL.
    expect(page.text).toContain('action="/settings/setup"');

    const base = { token, name: 'Ada', email: FIRST_ADMIN };
    const mismatch = await client.post('/settings/setup', { _csrf: csrfOf(page.text), ...base, password: GOOD_PASSWORD, password_again: `${GOOD_PASSWORD}!` });
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toContain('href="#setup-password-again"');
    const weak = await client.post('/settings/setup', { _csrf: csrfOf(page.text), ...base, password: 'short', password_again: 'short' });
    expect(weak.status).toBe(400);
    expect(textOf(weak.text)).toContain('Use at least 12 characters.');
    expect(weak.text).toMatch(/aria-describedby="[^"]*setup-password-error/);
    const common = await client.post('/settings/setup', { _csrf: csrfOf(page.text), ...base, password: 'password1234', password_again: 'password1234' });
    expect(common.status).toBe(400);
    expect(textOf(common.text)).toContain('most common passwords');

    const done = await client.post('/settings/setup', { _csrf: csrfOf(page.text), ...base, password: GOOD_PASSWORD, password_again: GOOD_PASSWORD });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe('/settings/keys');
    const session = setCookiesOf(done).find((c) => c.name === SESSION_COOKIE)!;
    expect(session.attributes.get('path')).toBe('/settings');
    expect(session.attributes.has('httponly')).toBe(true);
    expect(session.attributes.get('samesite')).toBe('Lax');
    // PUBLIC_URL is plain http on localhost: a Secure cookie would never come back.
    expect(session.attributes.has('secure')).toBe(false);
    const keys = await client.get('/settings/keys');
    expect(keys.status).toBe(200);
    expect(textOf(keys.text)).toContain('Signed in as Ada');
    admin = client;

    const setup = (await auditEntries()).find((e) => e.action === 'admin.setup')!;
    expect(setup.actor).toMatchObject({ kind: 'admin', label: FIRST_ADMIN });
  });

  it('works once: the same link is then a 404 page, and posting it again creates nobody', async () => {
    const client = new SettingsClient(t);
    const again = await client.get(`/settings/setup?token=${token}`);
    expect(again.status).toBe(404);
    const signIn = await client.get('/settings/sign-in');
    const replay = await client.post('/settings/setup', { _csrf: csrfOf(signIn.text), token, name: 'Mallory', email: 'mallory@example.com', password: GOOD_PASSWORD, password_again: GOOD_PASSWORD });
    expect(replay.status).toBe(409);
    expect(setCookiesOf(replay).some((c) => c.name === SESSION_COOKIE)).toBe(false);
    expect((await t.app.get(ListAdminsUseCase).execute()).map((a) => a.email)).toEqual([FIRST_ADMIN]);
  });

  it('never writes the token to the logs (request logs carry the path without its query)', () => {
    const logs = logLines.join('');
    expect(logs).toContain('/settings/setup');
    expect(logs).not.toContain(token);
  });
});

describe('every page', () => {
  it('is no-store, under the strict CSP, never framed, nosniff, same-origin referrer: signed in or not, pages, redirects and errors', async () => {
    const signedOut = new SettingsClient(t);
    for (const path of ['/settings/sign-in', '/settings/setup?token=x', '/settings/nope']) expectSettingsHeaders(await signedOut.get(path), path);
    const redirect = await signedOut.get('/settings/keys');
    expect(redirect.status).toBe(303);
    expectSettingsHeaders(redirect, 'redirect to sign in');

    const endpoint = await admin.submit('/settings/webhooks/new', { url: receiver.url('/every-page'), events: ['*'] });
    expect(endpoint.status).toBe(201);
    const endpointId = /\/settings\/webhooks\/(whep_[^"/?#]+)/.exec(endpoint.text)![1]!;
    const admins = await t.app.get(ListAdminsUseCase).execute();
    const pages = [
      '/settings/keys',
      '/settings/keys/new',
      '/settings/webhooks',
      '/settings/webhooks/new',
      `/settings/webhooks/${endpointId}`,
      `/settings/webhooks/${endpointId}/edit`,
      `/settings/webhooks/${endpointId}/delete`,
      '/settings/audit',
      '/settings/admins',
      '/settings/admins/new',
      `/settings/admins/${admins[0]!.id}/remove`,
      '/settings/account',
      '/settings/webhooks/whep_nope',
    ];
    for (const path of pages) {
      const res = await admin.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: path.endsWith('whep_nope') ? 404 : 200 });
      expectSettingsHeaders(res, path);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      // No inline script or style anywhere (the CSP would refuse them).
      expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(res.text).not.toMatch(/\sstyle=/);
      expect(res.text).toContain('<html lang="en"');
    }
    expectSettingsHeaders(endpoint, 'the secret page');
    // A stale or forged page link is the use case's refusal as a page, not a fault.
    const stale = await admin.get('/settings/audit?cursor=forged');
    expect(stale.status).toBe(400);
    expectSettingsHeaders(stale, 'a forged cursor');
  });

  it('sends a visitor without a session to sign in, and back afterwards', async () => {
    const res = await new SettingsClient(t).get('/settings/audit?cursor=abc');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/settings/sign-in?next=${encodeURIComponent('/settings/audit?cursor=abc')}`);
  });

  it('serves its stylesheet and script under hashed immutable names', async () => {
    const page = await admin.get('/settings/keys');
    const assets = [...page.text.matchAll(/(?:href|src)="(\/(?:settings\/)?assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toHaveLength(4);
    for (const path of assets) {
      const res = await t.http.get(path);
      expect({ path, status: res.status, cache: res.headers['cache-control'] }).toEqual({ path, status: 200, cache: 'public, max-age=31536000, immutable' });
    }
  });
});

describe('CSRF', () => {
  async function keyCount(): Promise<number> {
    return (await t.app.get(ListApiKeysUseCase).execute()).length;
  }

  it('refuses a form without the token, with another token, from another origin or cross-site, and changes nothing', async () => {
    const before = await keyCount();
    const form = { name: 'csrf', scopes: ['content:read'] };
    const page = await admin.get('/settings/keys/new');
    const token = csrfOf(page.text);
    const refusals: Array<[string, Response]> = [
      ['no token', await admin.post('/settings/keys/new', form)],
      ['empty token', await admin.post('/settings/keys/new', { ...form, _csrf: '' })],
      ['wrong token', await admin.post('/settings/keys/new', { ...form, _csrf: token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) })],
      ['another origin', await admin.post('/settings/keys/new', { ...form, _csrf: token }, { Origin: 'https://evil.example' })],
      ['origin null', await admin.post('/settings/keys/new', { ...form, _csrf: token }, { Origin: 'null' })],
      ['cross-site', await admin.post('/settings/keys/new', { ...form, _csrf: token }, { 'Sec-Fetch-Site': 'cross-site' })],
    ];
    for (const [what, res] of refusals) {
      expect({ what, status: res.status }).toEqual({ what, status: 403 });
      expect(textOf(res.text)).toContain(CSRF_MESSAGE);
      expectSettingsHeaders(res, what);
    }
    expect(await keyCount()).toBe(before);
    // The same form from the site itself goes through.
    const ok = await admin.post('/settings/keys/new', { ...form, _csrf: token }, { Origin: PUBLIC_URL, 'Sec-Fetch-Site': 'same-origin' });
    expect(ok.status).toBe(201);
    expect(await keyCount()).toBe(before + 1);
  });

  it('refuses a sign-out without the token (the session stays)', async () => {
    const res = await admin.post('/settings/sign-out', {});
    expect(res.status).toBe(403);
    expect((await admin.get('/settings/keys')).status).toBe(200);
  });

  it('refuses sign-in and setup posts without the double-submit cookie, or with a cookie the field does not match', async () => {
    const page = await new SettingsClient(t).get('/settings/sign-in');
    const token = csrfOf(page.text);
    const noCookie = new SettingsClient(t);
    const res = await noCookie.post('/settings/sign-in', { _csrf: token, email: FIRST_ADMIN, password: GOOD_PASSWORD });
    expect(res.status).toBe(403);
    expect(setCookiesOf(res).some((c) => c.name === SESSION_COOKIE)).toBe(false);
    const otherCookie = new SettingsClient(t);
    await otherCookie.get('/settings/sign-in');
    expect((await otherCookie.post('/settings/sign-in', { _csrf: token, email: FIRST_ADMIN, password: GOOD_PASSWORD })).status).toBe(403);
    expect((await otherCookie.post('/settings/setup', { _csrf: token, token: 'x', name: 'x', email: 'x@example.com', password: GOOD_PASSWORD, password_again: GOOD_PASSWORD })).status).toBe(403);
  });
});

describe('sign-in', () => {
  it('signs in with the form, sets the session cookie (HttpOnly, SameSite=Lax, Path=/settings) and goes to the page asked for', async () => {
    const client = new SettingsClient(t);
    const res = await client.submit('/settings/sign-in?next=%2Fsettings%2Faudit', { email: 'ADA@example.com', password: GOOD_PASSWORD, next: '/settings/audit' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/settings/audit');
    const cookie = setCookiesOf(res).find((c) => c.name === SESSION_COOKIE)!;
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect([...cookie.attributes.keys()].sort()).toEqual(['httponly', 'path', 'samesite']);
    expect((await client.get('/settings/audit')).status).toBe(200);
    // Signed in already: the sign-in page passes on.
    expect((await client.get('/settings/sign-in')).status).toBe(303);
  });

  it('never sends anyone off the site after signing in', async () => {
    const client = new SettingsClient(t);
    const res = await client.submit('/settings/sign-in', { email: FIRST_ADMIN, password: GOOD_PASSWORD, next: 'https://evil.example/settings/keys' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/settings/keys');
  });

  it('locks an account after 5 wrong passwords, with the polite message, even for the right password then', async () => {
    const email = uniqueEmail('locked');
    await createAdmin(t, email);
    const client = new SettingsClient(t);
    for (let i = 1; i <= 5; i++) {
      const res = await client.submit('/settings/sign-in', { email, password: `wrong password ${i}` });
      expect({ attempt: i, status: res.status }).toEqual({ attempt: i, status: 401 });
      expect(textOf(res.text)).toContain(BAD_CREDENTIALS);
      expect(res.text).toContain(`value="${email}"`);
    }
    const locked = await client.submit('/settings/sign-in', { email, password: GOOD_PASSWORD });
    expect(locked.status).toBe(429);
    expect(textOf(locked.text)).toContain('Too many sign-in attempts. Try again in 15 minutes.');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect(setCookiesOf(locked).some((c) => c.name === SESSION_COOKIE)).toBe(false);
    expectSettingsHeaders(locked, 'locked');
    const refused = (await auditEntries()).filter((e) => e.action === 'admin.sign_in_failed' && e.details['email'] === email);
    expect(refused.map((e) => e.details['reason'])).toEqual(['throttled', 'bad_credentials', 'bad_credentials', 'bad_credentials', 'bad_credentials', 'bad_credentials']);
  });

  it('answers an unknown email exactly as a wrong password, and locks it the same way (no enumeration)', async () => {
    const known = uniqueEmail('known');
    await createAdmin(t, known);
    const unknown = uniqueEmail('nobody');
    const client = new SettingsClient(t);
    const normalise = (res: Response, email: string) => ({ status: res.status, page: res.text.replace(/value="[A-Za-z0-9_-]{43}"/g, 'value="TOKEN"').replace(email, 'EMAIL') });
    const wrong = await client.submit('/settings/sign-in', { email: known, password: 'not the password at all' });
    const missing = await client.submit('/settings/sign-in', { email: unknown, password: 'not the password at all' });
    expect(normalise(missing, unknown)).toEqual(normalise(wrong, known));
    expect(missing.status).toBe(401);
    for (let i = 2; i <= 5; i++) expect((await client.submit('/settings/sign-in', { email: unknown, password: `guess ${i}` })).status).toBe(401);
    const locked = await client.submit('/settings/sign-in', { email: unknown, password: 'guess 6' });
    expect(locked.status).toBe(429);
    expect(textOf(locked.text)).toContain('Too many sign-in attempts. Try again in 15 minutes.');
  });
});

describe('a site on https', () => {
  let secure: TestApp;

  beforeAll(async () => {
    secure = await startTestApp({ env: { ...NO_LIMITS, PUBLIC_URL: 'https://help.example.com' } });
    await createAdmin(secure, 'grace@example.com');
  });

  afterAll(async () => secure?.close());

  it('marks both cookies Secure', async () => {
    const client = new SettingsClient(secure);
    const page = await client.get('/settings/sign-in');
    expect(setCookiesOf(page).find((c) => c.name === 'hc_csrf')!.attributes.has('secure')).toBe(true);
    const res = await client.post('/settings/sign-in', { _csrf: csrfOf(page.text), email: 'grace@example.com', password: GOOD_PASSWORD }, { Origin: 'https://help.example.com' });
    expect(res.status).toBe(303);
    const cookie = setCookiesOf(res).find((c) => c.name === SESSION_COOKIE)!;
    expect([...cookie.attributes.keys()].sort()).toEqual(['httponly', 'path', 'samesite', 'secure']);
    // The site's own origin is https://help.example.com: a form from plain http://localhost is another origin.
    expect((await client.post('/settings/sign-in', { _csrf: csrfOf(page.text), email: 'grace@example.com', password: GOOD_PASSWORD }, { Origin: 'http://localhost' })).status).toBe(403);
  });
});

describe('API keys', () => {
  it('shows a new key once, on a no-store page; it works with its scopes at once, is never listed or logged, and 401s once revoked', async () => {
    const page = await admin.get('/settings/keys/new');
    const created = await admin.post('/settings/keys/new', { _csrf: csrfOf(page.text), name: 'Zapier', scopes: ['content:read', 'analytics:read'], expires_on: '2999-12-31' });
    expect(created.status).toBe(201);
    expectSettingsHeaders(created, 'key created');
    const key = /value="(hck_[0-9A-Za-z]+)"/.exec(created.text)![1]!;
    expect(created.text.split(key)).toHaveLength(2);

    expect((await t.http.get('/v1/sections').set(bearer(key))).status).toBe(200);
    expect((await t.http.get('/v1/feedback').set(bearer(key))).status).toBe(200);
    const denied = await t.http.post('/v1/sections').set(bearer(key)).send({ name: 'Nope' });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('insufficient_scope');

    const list = await admin.get('/settings/keys');
    expect(list.text).not.toContain(key);
    const text = textOf(list.text);
    expect(text).toContain('Zapier');
    expect(text).toContain(`hck_…${key.slice(-4)}`);
    expect(text).toContain('content:read');
    expect(text).toContain('analytics:read');
    expect(text).toContain(FIRST_ADMIN);
    expect(text).toContain('3000-01-01 00:00 UTC');

    const stored = (await t.app.get(ListApiKeysUseCase).execute()).find((k) => k.props.name === 'Zapier')!;
    const confirm = await admin.get(`/settings/keys/${stored.id}/revoke`);
    expect(confirm.status).toBe(200);
    expect(textOf(confirm.text)).toContain('401 Unauthorized');
    // The confirmation page itself changes nothing.
    expect((await t.http.get('/v1/sections').set(bearer(key))).status).toBe(200);
    const revoked = await admin.post(`/settings/keys/${stored.id}/revoke`, { _csrf: csrfOf(confirm.text) });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.location).toBe('/settings/keys?notice=key_revoked');
    expect((await t.http.get('/v1/sections').set(bearer(key))).status).toBe(401);
    expect(textOf((await admin.get(revoked.headers.location!)).text)).toContain('The key was revoked.');

    const audit = (await auditEntries()).filter((e) => e.targetId === stored.id);
    expect(audit.map((e) => e.action)).toEqual(['api_key.revoked', 'api_key.created']);
    for (const entry of audit) {
      expect(entry.actor).toMatchObject({ kind: 'admin', label: FIRST_ADMIN });
      expect(entry.actor.ip).toMatch(/127\.0\.0\.1/);
      expect(JSON.stringify(entry)).not.toContain(key);
    }
    const auditPage = await admin.get('/settings/audit');
    expect(auditPage.text).toContain('data-action="api_key.created"');
    expect(auditPage.text).toContain('data-action="api_key.revoked"');
    expect(auditPage.text).toContain(stored.id);
    expect(auditPage.text).not.toContain(key);
    expect(logLines.join('')).not.toContain(key);
  });

  it('explains a refused form: a missing name and no scope, each linked from the error summary; a past expiry', async () => {
    const page = await admin.get('/settings/keys/new');
    const res = await admin.post('/settings/keys/new', { _csrf: csrfOf(page.text), name: ' ', expires_on: '' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('href="#key-name"');
    expect(res.text).toContain('href="#key-scopes"');
    expect(textOf(res.text)).toContain('Choose at least one scope.');
    expect(res.text).toMatch(/<fieldset[^>]*aria-describedby="[^"]*key-scopes-error/);
    const past = await admin.post('/settings/keys/new', { _csrf: csrfOf(page.text), name: 'old', scopes: 'content:read', expires_on: '2001-01-01' });
    expect(past.status).toBe(400);
    expect(textOf(past.text)).toContain('The expiry must be today or later.');
    const garbage = await admin.post('/settings/keys/new', { _csrf: csrfOf(page.text), name: 'old', scopes: 'content:read', expires_on: '2027-02-30' });
    expect(garbage.status).toBe(400);
  });
});

describe('webhooks', () => {
  it('shows the signing secret at creation and rotation only, sends a test event, and records each change', async () => {
    const created = await admin.submit('/settings/webhooks/new', { url: receiver.url('/hooks'), events: ['article.published', 'webhook.test'], description: 'Search indexer' });
    expect(created.status).toBe(201);
    const secret = /value="(whsec_[^"]+)"/.exec(created.text)![1]!;
    const id = /\/settings\/webhooks\/(whep_[^"/?#]+)/.exec(created.text)![1]!;
    const detail = await admin.get(`/settings/webhooks/${id}`);
    expect(detail.text).not.toContain(secret);
    expect(textOf(detail.text)).toContain('Search indexer');

    const tested = await admin.post(`/settings/webhooks/${id}/test`, { _csrf: csrfOf(detail.text) });
    expect(tested.status).toBe(303);
    expect(tested.headers.location).toBe(`/settings/webhooks/${id}?notice=test_sent#deliveries-heading`);
    const received = await receiver.waitFor((r) => r.path === '/hooks');
    expect(received.json<{ type: string }>().type).toBe('webhook.test');

    const rotated = await admin.post(`/settings/webhooks/${id}/rotate`, { _csrf: csrfOf(detail.text) });
    expect(rotated.status).toBe(200);
    const newSecret = /value="(whsec_[^"]+)"/.exec(rotated.text)![1]!;
    expect(newSecret).not.toBe(secret);
    expect((await admin.get(`/settings/webhooks/${id}`)).text).not.toContain(newSecret);

    const bad = await admin.submit(`/settings/webhooks/${id}/edit`, { url: 'ftp://example.com/x', events: ['*'] });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('href="#webhook-url"');

    const disabled = await admin.post(`/settings/webhooks/${id}/disable`, { _csrf: csrfOf(detail.text) });
    expect(disabled.headers.location).toBe(`/settings/webhooks/${id}?notice=webhook_disabled`);
    const off = textOf((await admin.get(disabled.headers.location!)).text);
    expect(off).toContain('Disabled by hand by an admin in the developer settings.');
    expect(off).not.toContain('Send a test event');
    const enabled = await admin.post(`/settings/webhooks/${id}/enable`, { _csrf: csrfOf(detail.text) });
    expect(enabled.headers.location).toBe(`/settings/webhooks/${id}?notice=webhook_enabled`);

    const actions = (await auditEntries()).filter((e) => e.targetId === id).map((e) => e.action);
    expect(actions).toEqual(['webhook.enabled', 'webhook.disabled', 'webhook.secret_rotated', 'webhook.test_sent', 'webhook.created']);
    const logs = logLines.join('');
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain(newSecret);
  });
});

describe('admins', () => {
  it('adds an admin with a generated password shown once', async () => {
    const email = uniqueEmail('generated');
    const res = await admin.submit('/settings/admins/new', { name: 'Gen', email, password: '' });
    expect(res.status).toBe(201);
    const password = /id="generated-password"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*id="generated-password"/.exec(res.text);
    const generated = (password![1] ?? password![2])!;
    expect(generated.length).toBeGreaterThanOrEqual(12);
    expect((await signedInClient(t, email, generated)).session).toBeDefined();
    expect((await admin.get('/settings/admins')).text).not.toContain(generated);
    const taken = await admin.submit('/settings/admins/new', { name: 'Gen again', email, password: '' });
    expect(taken.status).toBe(409);
    expect(taken.text).toContain('href="#admin-email"');
  });

  it("ends a removed admin's session at once", async () => {
    const email = uniqueEmail('removed');
    const id = await createAdmin(t, email);
    const victim = await signedInClient(t, email);
    expect((await victim.get('/settings/keys')).status).toBe(200);

    const confirm = await admin.get(`/settings/admins/${id}/remove`);
    const removed = await admin.post(`/settings/admins/${id}/remove`, { _csrf: csrfOf(confirm.text) });
    expect(removed.status).toBe(303);
    expect(removed.headers.location).toBe('/settings/admins?notice=admin_removed');

    const after = await victim.get('/settings/keys');
    expect(after.status).toBe(303);
    expect(after.headers.location).toBe('/settings/sign-in?next=%2Fsettings%2Fkeys&notice=session_ended');
    expect(victim.session).toBeUndefined();
    const entry = (await auditEntries()).find((e) => e.action === 'admin.removed' && e.targetId === id)!;
    expect(entry.actor).toMatchObject({ kind: 'admin', label: FIRST_ADMIN });
  });

  it('never removes the last admin, and says why', async () => {
    const others = (await t.app.get(ListAdminsUseCase).execute()).filter((a) => a.email !== FIRST_ADMIN);
    for (const other of others) {
      const confirm = await admin.get(`/settings/admins/${other.id}/remove`);
      expect((await admin.post(`/settings/admins/${other.id}/remove`, { _csrf: csrfOf(confirm.text) })).status).toBe(303);
    }
    const [last] = await t.app.get(ListAdminsUseCase).execute();
    expect(last!.email).toBe(FIRST_ADMIN);
    expect(textOf((await admin.get('/settings/admins')).text)).toContain('The last admin');
    const confirm = await admin.get(`/settings/admins/${last!.id}/remove`);
    const refused = await admin.post(`/settings/admins/${last!.id}/remove`, { _csrf: csrfOf(confirm.text) });
    expect(refused.status).toBe(409);
    expect(textOf(refused.text)).toContain("The last admin can't be removed");
    expect((await admin.get('/settings/keys')).status).toBe(200);
  });
});

describe('your account', () => {
  it('changes the password (refusing a wrong current one), ends the other sessions and keeps this one', async () => {
    const email = uniqueEmail('account');
    await createAdmin(t, email);
    const me = await signedInClient(t, email, GOOD_PASSWORD, '192.0.2.20');
    const elsewhere = await signedInClient(t, email, GOOD_PASSWORD, '192.0.2.21');
    const page = await me.get('/settings/account');
    expect(textOf(page.text)).toContain('192.0.2.21');
    expect(textOf(page.text)).toContain('This session');

    const wrong = await me.post('/settings/account/password', { _csrf: csrfOf(page.text), current_password: 'not my password', new_password: 'brand new orbit 9 lanterns', new_password_again: 'brand new orbit 9 lanterns' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('href="#current-password"');

    const changed = await me.post('/settings/account/password', { _csrf: csrfOf(page.text), current_password: GOOD_PASSWORD, new_password: 'brand new orbit 9 lanterns', new_password_again: 'brand new orbit 9 lanterns' });
    expect(changed.status).toBe(303);
    expect((await me.get('/settings/account')).status).toBe(200);
    expect((await elsewhere.get('/settings/account')).status).toBe(303);
  });

  it('signs out another session of ones own', async () => {
    const email = uniqueEmail('sessions');
    await createAdmin(t, email);
    const me = await signedInClient(t, email, GOOD_PASSWORD, '192.0.2.30');
    const other = await signedInClient(t, email, GOOD_PASSWORD, '192.0.2.31');
    const page = await me.get('/settings/account');
    const sessionId = /action="\/settings\/account\/sessions\/(ses_[^/"]+)\/revoke"/.exec(page.text)![1]!;
    const res = await me.post(`/settings/account/sessions/${sessionId}/revoke`, { _csrf: csrfOf(page.text) });
    expect(res.status).toBe(303);
    expect((await other.get('/settings/keys')).status).toBe(303);
    expect((await me.get('/settings/keys')).status).toBe(200);
  });
});

describe('sessions', () => {
  it('end after the idle time and at the absolute end (read from the session row)', async () => {
    const email = uniqueEmail('expiry');
    const adminId = await createAdmin(t, email);
    const idle = await signedInClient(t, email, GOOD_PASSWORD, '192.0.2.40');
    const absolute = await signedInClient(t, email, GOOD_PASSWORD, '192.0.2.41');
    expect((await idle.get('/settings/keys')).status).toBe(200);
    // 121 minutes without use (the default idle time is 120).
    await sql.query("UPDATE admin_sessions SET last_seen_at = now() - interval '121 minutes' WHERE admin_id = $1 AND ip = '192.0.2.40'", [adminId]);
    await sql.query("UPDATE admin_sessions SET expires_at = now() - interval '1 second' WHERE admin_id = $1 AND ip = '192.0.2.41'", [adminId]);
    for (const client of [idle, absolute]) {
      const res = await client.get('/settings/keys');
      expect(res.status).toBe(303);
      expect(res.headers.location).toContain('notice=session_ended');
    }
  });

  it('sign-out ends the session and clears the cookie', async () => {
    const email = uniqueEmail('signout');
    await createAdmin(t, email);
    const client = await signedInClient(t, email, GOOD_PASSWORD, '192.0.2.50');
    const cookie = client.session!;
    const page = await client.get('/settings/keys');
    const res = await client.post('/settings/sign-out', { _csrf: csrfOf(page.text) });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/settings/sign-in?notice=signed_out');
    expect(setCookiesOf(res).find((c) => c.name === SESSION_COOKIE)!.attributes.get('max-age')).toBe('0');
    // The old cookie is dead on the server too.
    const replay = await t.http.get('/settings/keys').set('Cookie', `${SESSION_COOKIE}=${cookie}`);
    expect(replay.status).toBe(303);
    expect((await auditEntries()).some((e) => e.action === 'admin.signed_out' && e.actor.label === email)).toBe(true);
  });
});
