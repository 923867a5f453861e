import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';
import {
  consoleErrors,
  describeViolations,
  focusedElement,
  foreignRequests,
  launchBrowser,
  overflowsHorizontally,
  runAxe,
  screenshots,
  seriousViolations,
  type TestBrowser,
  VIEWPORTS,
} from '../support/browser.js';
import { closedPort } from '../support/ports.js';
import { GOOD_PASSWORD, issueSetupToken } from '../support/settings.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * The developer settings in a real browser (Debian's Chromium through playwright-core; see test/support/browser.ts):
 * the setup link → the first admin → sign out and in → a key with two scopes, copied and used on the API (a third
 * scope refused) → revoked (401) → a webhook endpoint to a local receiver → a test event delivered → the receiver
 * failing → the failure seen and retried → sign out → an expired session; a key made without JavaScript; axe-core
 * (no serious or critical violation) on every page at 1280 and 360 px, and screenshots into
 * test-artifacts/screenshots/settings-*.png.
 */

const NAME = 'Ada Lovelace';
const EMAIL = 'ada@example.com';
const HOOK = '/settings-hook';

let t: TestApp;
let receiver: WebhookReceiver;
let browser: TestBrowser;
let page: Page;
let origin: string;
let sql: pg.Client;
let plainKey: string;

beforeAll(async () => {
  receiver = await startReceiver();
  // The browser talks to the server under PUBLIC_URL itself: the forms' Origin is the site's, and on plain-http
  // 127.0.0.1 the cookies go without Secure, as for a developer trying the service on their machine.
  const port = await closedPort();
  origin = `http://127.0.0.1:${port}`;
  t = await startTestApp({
    port,
    env: {
      ...NO_LIMITS,
      PUBLIC_URL: origin,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
      WEBHOOK_RETRY_SCHEDULE: '1',
      WEBHOOK_SWEEP_INTERVAL_MS: '500',
    },
  });
  sql = new pg.Client({ connectionString: t.databaseUrl! });
  await sql.connect();
  browser = await launchBrowser();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
}, 120_000);

/** Each test in a tab of its own (the cookies are the browser's), so its log is its own. */
beforeEach(async () => {
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await sql?.end();
  await t?.close();
  await receiver?.close();
});

const url = (path: string) => `${origin}${path}`;

/**
 * No script error, no CSP report or other console error, no failed stylesheet or script, nothing from elsewhere.
 * Chromium's report of a refused form's own 4xx status is not an error of the page (failed subresources are in `failed`).
 */
function expectCleanRun(from: Page, on: TestBrowser = browser): void {
  const log = on.log(from);
  const console = consoleErrors(log).filter((text) => !/^Failed to load resource: the server responded with a status of 4\d\d /.test(text));
  expect({ url: from.url(), errors: log.errors, console, failed: log.failed, foreign: foreignRequests(log, origin) }).toEqual({
    url: from.url(),
    errors: [],
    console: [],
    failed: [],
    foreign: [],
  });
}

/** axe-core at 1280 and 360 px (no serious or critical violation), no sideways scrolling at 360, screenshots. */
async function checkPage(name: string): Promise<void> {
  await page.setViewportSize(VIEWPORTS[1]);
  const violations = await runAxe(page);
  const serious = seriousViolations(violations);
  expect({ page: name, serious: describeViolations(serious) }).toEqual({ page: name, serious: '' });
  await page.setViewportSize(VIEWPORTS[0]);
  if (await overflowsHorizontally(page)) {
    const wide = await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ tagName: string; className: unknown; closest(s: string): unknown; getBoundingClientRect(): { right: number } }> } }).document;
      return Array.from(doc.querySelectorAll('body *'))
        .filter((el) => el.getBoundingClientRect().right > 361 && !el.closest('.table-wrap table'))
        .slice(0, 10)
        .map((el) => `${el.tagName}.${String(el.className)} ${el.getBoundingClientRect().right}`);
    });
    process.stdout.write(`wide at 360 on ${name}: ${wide.join(', ')}\n`);
  }
  expect({ page: name, scrollsSideways: await overflowsHorizontally(page) }).toEqual({ page: name, scrollsSideways: false });
  const mobile = seriousViolations(await runAxe(page));
  expect({ page: `${name} at 360 px`, serious: describeViolations(mobile) }).toEqual({ page: `${name} at 360 px`, serious: '' });
  await page.setViewportSize(VIEWPORTS[1]);
  expect(await screenshots(page, `settings-${name}`)).toHaveLength(2);
  const rest = violations.filter((v) => !serious.includes(v));
  if (rest.length > 0) process.stdout.write(`axe, settings ${name}: ${describeViolations(rest)}\n`);
}

async function heading(): Promise<string> {
  return ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').trim();
}

/** A status label with exactly this text. */
function badge(text: string) {
  return page.locator('.badge', { hasText: new RegExp(`^${text}$`) });
}

/** Reloads the page until a status label with `text` shows (deliveries happen in the background). */
async function reloadUntil(text: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await badge(text).count()) > 0) return;
    if (Date.now() > deadline) throw new Error(`"${text}" did not show on ${page.url()}:\n${await page.locator('main').innerText()}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await page.reload();
  }
}

async function signIn(email = EMAIL, password = GOOD_PASSWORD): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('developer settings in the browser', () => {
  it('setup link → the first admin → sign out → sign in', async () => {
    const token = await issueSetupToken(t);
    await page.goto(url(`/settings/setup?token=${token}`));
    expect(await heading()).toBe('Create the first admin');
    await checkPage('setup');
    // A refused form: the error summary takes focus and links to the field.
    await page.getByLabel('Your name').fill(NAME);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill('too short');
    await page.getByLabel('Password again').fill('too short');
    await page.getByRole('button', { name: 'Create admin and sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect((await focusedElement(page))?.className).toContain('error-summary');
    await expect(page.getByRole('link', { name: 'Use at least 12 characters.' }).getAttribute('href')).resolves.toBe('#setup-password');
    await checkPage('setup-error');

    await page.getByLabel('Password', { exact: true }).fill(GOOD_PASSWORD);
    await page.getByLabel('Password again').fill(GOOD_PASSWORD);
    await page.getByRole('button', { name: 'Create admin and sign in' }).click();
    await page.waitForURL(url('/settings/keys'));
    expect(await heading()).toBe('API keys');
    await page.getByText(`Signed in as ${NAME}`).waitFor();
    const cookie = (await browser.context.cookies(url('/settings/keys'))).find((c) => c.name === 'hc_session')!;
    expect({ httpOnly: cookie.httpOnly, sameSite: cookie.sameSite, path: cookie.path, secure: cookie.secure }).toEqual({ httpOnly: true, sameSite: 'Lax', path: '/settings', secure: false });
    expectCleanRun(page);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/settings/sign-in?notice=signed_out');
    await page.getByText('You signed out.').waitFor();
    await checkPage('sign-in');
    await signIn();
    await page.waitForURL(url('/settings/keys'));
    expectCleanRun(page);
  });

  it('a key with two scopes: copied, used on the API (a third scope refused), revoked → 401', async () => {
    await page.goto(url('/settings/keys'));
    await checkPage('keys-empty');
    await page.getByRole('link', { name: 'Create a key' }).click();
    expect(await heading()).toBe('Create a key');
    await page.getByText('each include').waitFor();
    await checkPage('key-new');
    await page.getByLabel('Name').fill('Reporting job');
    await page.getByRole('checkbox', { name: 'content:read' }).check();
    await page.getByRole('checkbox', { name: 'analytics:read' }).check();
    const nextYear = `${new Date().getUTCFullYear() + 1}-06-30`;
    await page.getByLabel('Expires (optional)').fill(nextYear);
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await heading()).toBe('Key created: Reporting job');
    const field = page.getByLabel('Your new API key');
    const shown = await field.inputValue();
    expect(shown).toMatch(/^hck_[0-9A-Za-z]{43}$/);
    expect(await field.getAttribute('readonly')).not.toBeNull();

    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    plainKey = await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());
    expect(plainKey).toBe(shown);
    await checkPage('key-created');
    expectCleanRun(page);

    expect((await t.http.get('/v1/sections').set(bearer(plainKey))).status).toBe(200);
    expect((await t.http.get('/v1/feedback').set(bearer(plainKey))).status).toBe(200);
    const third = await t.http.post('/v1/sections').set(bearer(plainKey)).send({ name: 'Not allowed' });
    expect({ status: third.status, code: third.body.code }).toEqual({ status: 403, code: 'insufficient_scope' });

    await page.getByRole('link', { name: 'Done: back to the keys' }).click();
    const row = page.getByRole('row', { name: /Reporting job/ });
    await expect(row.textContent()).resolves.toContain(`hck_…${plainKey.slice(-4)}`);
    expect(await page.content()).not.toContain(plainKey);
    await checkPage('keys');
    await row.getByRole('link', { name: /^Revoke/ }).click();
    expect(await heading()).toBe('Revoke “Reporting job”?');
    await checkPage('key-revoke');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.waitForURL('**/settings/keys?notice=key_revoked');
    await page.getByText('The key was revoked.').waitFor();
    expect((await t.http.get('/v1/sections').set(bearer(plainKey))).status).toBe(401);
    await expect(page.getByRole('row', { name: /Reporting job/ }).textContent()).resolves.toContain('Revoked');
    expectCleanRun(page);
  });

  it('a webhook to a local receiver: test delivered, the receiver failing, the failure seen and retried', async () => {
    await page.goto(url('/settings/keys'));
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click();
    expect(await heading()).toBe('Webhooks');
    await checkPage('webhooks-empty');
    await page.getByRole('link', { name: 'Add an endpoint' }).click();
    await checkPage('webhook-new');
    await page.getByLabel('URL').fill(receiver.url(HOOK));
    await page.getByRole('checkbox', { name: 'article.published' }).check();
    await page.getByRole('checkbox', { name: 'webhook.test' }).check();
    await page.getByLabel('Description (optional)').fill('Search indexer');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await heading()).toBe('Endpoint added');
    expect(await page.getByLabel('Signing secret').inputValue()).toMatch(/^whsec_/);
    await checkPage('webhook-secret');
    await page.getByRole('link', { name: 'Done: go to the endpoint' }).click();

    await page.getByRole('button', { name: 'Send a test event' }).click();
    await page.getByText('A test event was queued.').waitFor();
    const received = await receiver.waitFor((r) => r.path === HOOK);
    expect(received.json<{ type: string }>().type).toBe('webhook.test');
    await reloadUntil('Delivered');
    await checkPage('webhook');

    receiver.respond(HOOK, { status: 500, body: 'receiver is down for maintenance' });
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await reloadUntil('Failed', 30_000);
    const failedRow = page.getByRole('row', { name: /Failed/ });
    await expect(failedRow.textContent()).resolves.toContain('500');
    await failedRow.getByRole('link').first().click();
    expect(await heading()).toBe('Delivery of webhook.test');
    const attempts = page.getByRole('table', { name: 'Attempts, oldest first' });
    expect(await attempts.getByRole('row').count()).toBe(3);
    await expect(attempts.textContent()).resolves.toContain('receiver is down for maintenance');
    await checkPage('delivery-failed');

    receiver.respond(HOOK, { status: 204 });
    await page.getByRole('button', { name: 'Retry this delivery' }).click();
    await page.getByText('The delivery was queued again.').waitFor();
    await reloadUntil('Delivered');
    expect(await attempts.getByRole('row').count()).toBe(4);
    expectCleanRun(page);
  });

  it('the audit log, the admins and the account show what happened', async () => {
    await page.goto(url('/settings/keys'));
    await page.getByRole('link', { name: 'Audit log' }).click();
    const audit = page.getByRole('table', { name: 'Entries, newest first' });
    for (const action of ['Created the first admin (setup link)', 'Signed in', 'Created an API key', 'Revoked an API key', 'Added a webhook endpoint', 'Sent a test event', 'Retried a webhook delivery']) {
      await expect(audit.textContent()).resolves.toContain(action);
    }
    await expect(audit.textContent()).resolves.toContain(EMAIL);
    await checkPage('audit');
    await page.getByRole('link', { name: 'Admins' }).click();
    await expect(page.getByRole('table').textContent()).resolves.toContain(EMAIL);
    await checkPage('admins');
    await page.getByRole('link', { name: 'Add an admin' }).click();
    await checkPage('admin-new');
    await page.getByRole('link', { name: 'Your account' }).click();
    await page.getByText('This session').waitFor();
    await checkPage('account');
    expectCleanRun(page);
  });

  it('the keyboard reaches the navigation with focus shown', async () => {
    await page.goto(url('/settings/keys'));
    await page.keyboard.press('Tab');
    const skip = await focusedElement(page);
    expect({ text: skip?.text, visible: skip?.focusVisible && skip.indicator }).toEqual({ text: 'Skip to content', visible: true });
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      const focused = await focusedElement(page);
      if (focused?.text === 'Webhooks') {
        expect(focused.focusVisible && focused.indicator).toBe(true);
        return;
      }
    }
    throw new Error('Tab never reached the Webhooks link');
  });

  it('sign out, then a session that expired sends the browser to sign in and back', async () => {
    await page.goto(url('/settings/keys'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/settings/sign-in?notice=signed_out');
    await page.goto(url('/settings/webhooks'));
    await page.waitForURL('**/settings/sign-in?next=%2Fsettings%2Fwebhooks');
    await signIn();
    await page.waitForURL(url('/settings/webhooks'));

    // The session goes unused for longer than SETTINGS_SESSION_IDLE_MINUTES (120 by default).
    await sql.query("UPDATE admin_sessions SET last_seen_at = now() - interval '3 hours'");
    await page.goto(url('/settings/audit'));
    await page.waitForURL('**/settings/sign-in?next=%2Fsettings%2Faudit&notice=session_ended');
    await page.getByText('Your session ended. Sign in again to continue.').waitFor();
    expect((await browser.context.cookies(url('/settings/keys'))).some((c) => c.name === 'hc_session')).toBe(false);
    await signIn();
    await page.waitForURL(url('/settings/audit'));
    expectCleanRun(page);
  });

  it('works without JavaScript: a key is created and shown in a field to select (no Copy button)', async () => {
    const noScript = await launchBrowser({ javaScriptEnabled: false });
    try {
      const plain = await noScript.newPage();
      await plain.goto(url('/settings/sign-in'));
      await plain.getByLabel('Email').fill(EMAIL);
      await plain.getByLabel('Password').fill(GOOD_PASSWORD);
      await plain.getByRole('button', { name: 'Sign in' }).click();
      await plain.waitForURL(url('/settings/keys'));
      await plain.goto(url('/settings/keys/new'));
      await plain.getByLabel('Name').fill('No script');
      await plain.getByRole('checkbox', { name: 'webhooks:manage' }).check();
      await plain.getByRole('button', { name: 'Create key' }).click();
      const key = await plain.getByLabel('Your new API key').inputValue();
      expect(key).toMatch(/^hck_/);
      expect(await plain.getByRole('button', { name: 'Copy' }).isVisible()).toBe(false);
      expect((await t.http.get('/v1/webhooks').set(bearer(key))).status).toBe(200);
      expectCleanRun(plain, noScript);
    } finally {
      await noScript.close();
    }
  });
});
