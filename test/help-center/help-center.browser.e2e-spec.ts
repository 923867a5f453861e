import { deflateSync, crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page, Response } from 'playwright-core';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
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
  tabUntil,
  type TestBrowser,
  VIEWPORTS,
} from '../support/browser.js';
import { NO_LIMITS } from '../support/articles.js';
import { defaultSectionId } from '../support/sections.js';

/**
 * The public help center in a real browser (Debian's Chromium through playwright-core; see test/support/browser.ts):
 * a reader's path from the home page to an article and its feedback form, with and without JavaScript, search,
 * the language switch and its visible fallback, what is not live (404), a renamed slug (301), the keyboard alone,
 * axe-core in each page (0 serious or critical violations) and screenshots at 360 and 1280 px
 * (test-artifacts/screenshots/help-center-*.png).
 */

const NAME = 'Acme Help Center';
/** The test app's PUBLIC_URL (test/support/app.ts): stored image URLs point there; the browser maps it to the app. */
const PUBLIC_URL = 'http://help.test';

/** A solid-colour RGB PNG (a stand-in screenshot, wider than a phone so the page must scale it down). */
function png(width: number, height: number, rgb: readonly [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const framed = Buffer.alloc(body.length + 8);
    framed.writeUInt32BE(data.length, 0);
    body.copy(framed, 4);
    framed.writeUInt32BE(crc32(body), body.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // RGB
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

/** Hosted by the asset store when the article embeds it as a data URL; served back under PUBLIC_URL/static. */
const IMAGE = png(640, 200, [214, 228, 240]);

const PASSWORD_MARKDOWN = [
  'Forgot your password? You can reset it yourself in a minute.',
  '## Before you start',
  'Make sure you can open the email account you signed up with.',
  ':::callout{variant="info"}\nReset links expire after one hour.\n:::',
  '## Reset it from the sign-in page',
  '::::steps\n:::step{title="Open the sign-in page"}\nChoose **Forgot password**.\n:::\n\n:::step{title="Check your email"}\nFollow the link we send you and choose a new password.\n:::\n::::',
  `![The sign-in page with the Forgot password link](data:image/png;base64,${IMAGE.toString('base64')})`,
  '## If the email does not arrive',
  'Look in your spam folder, then ask us through the contact form.',
].join('\n\n');

interface Fixture {
  billingShortId: string;
  accountShortId: string;
  passwordId: string;
  billingDetailsId: string;
  invoiceId: string;
  draftSlug: string;
  trashedSlug: string;
}

async function seed(t: TestApp, key: string): Promise<Fixture> {
  const auth = bearer(key);
  const ok = async (request: ReturnType<TestApp['http']['get']>, status: number) => (await request.set(auth).expect(status)).body;
  await ok(t.http.patch('/v1/helpdesk').send({ name: NAME, languages: ['en', 'fr'], accentColor: '#0b6e4f', footerLinks: [{ label: 'Status', url: 'https://status.example.com' }] }), 200);
  const sectionId = await defaultSectionId(t, key);
  const billing = await ok(t.http.post('/v1/collections').send({ title: 'Billing and payments', subtitle: 'Invoices, cards and refunds', sectionId }), 201);
  const account = await ok(t.http.post('/v1/collections').send({ title: 'Your account', subtitle: 'Signing in, passwords and email', sectionId }), 201);
  await ok(t.http.put(`/v1/collections/${billing.id}/translations/fr`).send({ title: 'Facturation et paiements', subtitle: 'Factures, cartes et remboursements' }), 201);
  const article = (title: string, collectionId: string, markdown: string, extra: Record<string, unknown> = {}) =>
    ok(t.http.post('/v1/articles').send({ title, sectionId, collectionId, markdown, publish: true, ...extra }), 201) as Promise<{ id: string; slug: string }>;
  const password = await article('Reset your password', account.id, PASSWORD_MARKDOWN, { metaDescription: 'Reset a forgotten password from the sign-in page.' });
  await article('Turn on two-step sign-in', account.id, 'Protect your account with a second step when you sign in with your password.\n\n## Set it up\n\nOpen **Security** in your settings.');
  const details = await article('Update your billing details', billing.id, 'Change the card we charge and the address on your invoices.\n\n## Change the card\n\nOpen **Billing** and choose **Edit**.');
  await ok(t.http.put(`/v1/articles/${details.id}/translations/fr`).send({ title: 'Mettre à jour vos informations de facturation', markdown: 'Changez la carte débitée et l’adresse de vos factures.\n\n## Changer la carte\n\nOuvrez **Facturation**.' }), 201);
  await ok(t.http.post(`/v1/articles/${details.id}/translations/fr/publish`), 200);
  const invoice = await article('Download an invoice', billing.id, 'Every invoice is in **Billing → Invoices** as a PDF.\n\n## Older invoices\n\nInvoices are kept for seven years.');
  const renamed = await article('Change your email address', account.id, 'Your email address is where we send password reset links.', { slug: 'change-email' });
  await ok(t.http.patch(`/v1/articles/${renamed.id}`).send({ slug: 'change-your-email-address' }), 200);
  const draft = await ok(t.http.post('/v1/articles').send({ title: 'Unreleased pricing', sectionId, collectionId: billing.id, markdown: 'Not yet.' }), 201);
  const trashed = await article('Retired plan', billing.id, 'This plan is gone.');
  await ok(t.http.delete(`/v1/articles/${trashed.id}`), 200);
  return {
    billingShortId: billing.shortId,
    accountShortId: account.shortId,
    passwordId: password.id,
    billingDetailsId: details.id,
    invoiceId: invoice.id,
    draftSlug: draft.slug,
    trashedSlug: trashed.slug,
  };
}

describe('the public help center in a browser', () => {
  let t: TestApp;
  let key: string;
  let f: Fixture;
  let browser: TestBrowser;

  beforeAll(async () => {
    t = await startTestApp({ env: { ...NO_LIMITS, RATE_LIMIT_PUBLIC_FEEDBACK_PER_MINUTE: '1000' } });
    key = await t.key(null);
    f = await seed(t, key);
    browser = await launchBrowser({ aliases: { [PUBLIC_URL]: t.url } });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const url = (path: string) => `${t.url}${path}`;

  async function open(path: string, status = 200): Promise<{ page: Page; response: Response }> {
    const page = await browser.newPage();
    const response = (await page.goto(url(path)))!;
    expect({ path, status: response.status() }).toEqual({ path, status });
    return { page, response };
  }

  /**
   * Nothing the page did that it must not: no script error, no CSP report or other console error, no stylesheet,
   * script or image that failed, no request to anywhere but the service (under its address or its PUBLIC_URL).
   */
  function expectCleanRun(page: Page, documentStatus = 200, from: TestBrowser = browser): void {
    const log = from.log(page);
    expect({ url: page.url(), errors: log.errors, console: consoleErrors(log, documentStatus), failed: log.failed, foreign: foreignRequests(log, t.url, PUBLIC_URL) }).toEqual({
      url: page.url(),
      errors: [],
      console: [],
      failed: [],
      foreign: [],
    });
  }

  async function feedbackStored(articleId: string): Promise<Array<{ type: string; feedback: string; email: string | null }>> {
    return (await t.http.get(`/v1/feedback?article_id=${articleId}`).set(bearer(key)).expect(200)).body.results;
  }

  it('home → collection → article, then feedback without a reload (JavaScript on)', async () => {
    const { page } = await open('/');
    expect(await page.title()).toContain(NAME);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
    await page.getByRole('link', { name: /Billing and payments/ }).first().click();
    await page.waitForURL(`**/collections/${f.billingShortId}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('Billing and payments');
    expect(await page.getByRole('link', { name: 'Unreleased pricing' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Retired plan' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Download an invoice' }).first().click();
    await page.waitForURL('**/articles/download-an-invoice');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Download an invoice');
    expectCleanRun(page);

    await page.goto(url('/articles/reset-your-password'));
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Reset your password');
    // Breadcrumbs up to the collection, a table of contents whose links reach the headings' anchors.
    const breadcrumbs = page.getByRole('navigation', { name: /breadcrumb/i });
    await expect(breadcrumbs.getByRole('link', { name: 'Your account' }).getAttribute('href')).resolves.toContain(`/collections/${f.accountShortId}`);
    const toc = page.getByRole('navigation', { name: /contents/i });
    const tocLinks = await toc.getByRole('link').evaluateAll((links) => links.map((a) => [a.textContent, a.getAttribute('href')]));
    expect(tocLinks.map(([text]) => text)).toEqual(['Before you start', 'Reset it from the sign-in page', 'If the email does not arrive']);
    for (const [, href] of tocLinks) expect(await page.locator(`[id="${href!.slice(1)}"]`).count()).toBe(1);
    // The hosted image loads from the service itself.
    const image = page.getByRole('img', { name: 'The sign-in page with the Forgot password link' });
    expect(await image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(640);

    // Marked in this document: a reload or a navigation would lose it.
    await page.evaluate(() => ((globalThis as unknown as { __noReload: boolean }).__noReload = true));
    const form = page.locator('#feedback');
    await form.getByLabel(/comment/i).fill('Clear steps, thank you.');
    await form.getByLabel(/email/i).fill('Reader@Example.com');
    const posted = page.waitForResponse((r) => r.url() === url(`/v1/public/articles/${f.passwordId}/feedback`) && r.request().method() === 'POST');
    await form.getByRole('button', { name: /^yes/i }).click();
    expect((await posted).status()).toBe(201);
    await form.getByText(/thank/i).first().waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    expect(page.url()).toBe(url('/articles/reset-your-password'));
    expect(await feedbackStored(f.passwordId)).toEqual([expect.objectContaining({ type: 'positive', feedback: 'Clear steps, thank you.', email: 'reader@example.com' })]);
    expectCleanRun(page);
  });

  it('feedback without JavaScript: a plain form POST, 303 back to the article with a thank-you', async () => {
    const noScript = await launchBrowser({ javaScriptEnabled: false, aliases: { [PUBLIC_URL]: t.url } });
    try {
      const page = await noScript.newPage();
      await page.goto(url('/articles/download-an-invoice'));
      const form = page.locator('#feedback');
      await form.getByLabel(/comment/i).fill('The PDF link is hard to find.');
      const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), form.getByRole('button', { name: /^no/i }).click()]);
      expect(response.status()).toBe(303);
      expect(response.url()).toBe(url('/articles/download-an-invoice/feedback'));
      await page.waitForURL(url('/articles/download-an-invoice') + '**');
      expect(new URL(page.url()).hash).toBe('#feedback');
      await page.locator('#feedback').getByText(/thank/i).first().waitFor();
      expect(await feedbackStored(f.invoiceId)).toEqual([expect.objectContaining({ type: 'negative', feedback: 'The PDF link is hard to find.', email: null })]);
      expectCleanRun(page, 200, noScript);
    } finally {
      await noScript.close();
    }
  });

  it('search: highlighted results from the search box, and an empty state that helps', async () => {
    const { page } = await open('/');
    const box = page.getByRole('searchbox').first();
    await box.fill('password');
    await box.press('Enter');
    await page.waitForURL('**/search?q=password**');
    const result = page.getByRole('link', { name: 'Reset your password' }).first();
    await result.waitFor();
    const marks = await page.locator('main mark').allTextContents();
    expect(marks.length).toBeGreaterThan(0);
    for (const mark of marks) expect(mark.toLowerCase()).toContain('password');
    expect(await page.getByRole('link', { name: 'Retired plan' }).count()).toBe(0);
    expectCleanRun(page);

    const empty = await open('/search?q=zebra%20quasar');
    await empty.page.getByText(/no (articles|results)/i).first().waitFor();
    expect(await empty.page.locator('main mark').count()).toBe(0);
    // Somewhere to go next: the search box again and a way home.
    expect(await empty.page.getByRole('searchbox').count()).toBeGreaterThan(0);
    expectCleanRun(empty.page);
  });

  it('language switch: the translation in French, and a visible fallback where there is none', async () => {
    const { page } = await open('/articles/update-your-billing-details');
    const hreflang = await page.locator('link[rel="alternate"][hreflang]').evaluateAll((links) => links.map((l) => [l.getAttribute('hreflang'), l.getAttribute('href')]));
    expect(hreflang).toEqual(expect.arrayContaining([['fr', expect.stringContaining('/fr/articles/update-your-billing-details')]]));
    await page.getByRole('link', { name: /Français/ }).first().click();
    await page.waitForURL('**/fr/articles/update-your-billing-details');
    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Mettre à jour vos informations de facturation');
    expect(await page.getByText(/not available in Français/i).count()).toBe(0);
    expectCleanRun(page);

    // Not translated: the English text, said so, marked lang="en" inside the French page.
    const fallback = await open('/fr/articles/download-an-invoice');
    expect(await fallback.page.locator('html').getAttribute('lang')).toBe('fr');
    // Said in the page's language, naming both languages.
    const notice = await fallback.page.getByRole('note').first().textContent();
    expect(notice).toContain('Français');
    expect(notice).toContain('English');
    await expect(fallback.page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Download an invoice');
    expect(await fallback.page.getByRole('heading', { level: 1 }).evaluate((h) => h.closest('[lang]')?.getAttribute('lang'))).toBe('en');
    expectCleanRun(fallback.page);
  });

  it('a draft and a trashed article are a 404 page; a renamed slug redirects (301) to the new one', async () => {
    for (const slug of [f.draftSlug, f.trashedSlug]) {
      const { page } = await open(`/articles/${slug}`, 404);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(/not found|find that page/i);
      expect(await page.title()).toContain(NAME);
      expect(await page.getByRole('searchbox').count()).toBeGreaterThan(0);
      expectCleanRun(page, 404);
    }
    const { page, response } = await open('/articles/change-email');
    const hop = response.request().redirectedFrom();
    expect(hop && (await hop.response())?.status()).toBe(301);
    expect(page.url()).toBe(url('/articles/change-your-email-address'));
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Change your email address');
  });

  it('the main path by keyboard alone, focus always visible', async () => {
    const page = await browser.newPage();
    await page.goto(url('/'));
    const skip = await tabUntil(page, () => true, 1);
    expect(skip).toMatchObject({ tag: 'a', focusVisible: true, indicator: true });
    expect(skip.text).toMatch(/skip/i);
    // The skip link is drawn when focused (not left off screen).
    const skipBox = await page.locator(':focus').boundingBox();
    expect(skipBox && skipBox.width > 0 && skipBox.x >= 0 && skipBox.y >= 0).toBe(true);
    await page.keyboard.press('Enter');
    expect(new URL(page.url()).hash).toBe(skip.href);

    await page.goto(url('/'));
    const search = await tabUntil(page, (el) => el.tag === 'input' && el.name === 'q');
    expect(search).toMatchObject({ focusVisible: true, indicator: true });
    const collection = await tabUntil(page, (el) => el.tag === 'a' && (el.href ?? '').endsWith(`/collections/${f.accountShortId}`));
    expect(collection).toMatchObject({ focusVisible: true, indicator: true });
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/collections/${f.accountShortId}`);
    const article = await tabUntil(page, (el) => el.tag === 'a' && (el.href ?? '').endsWith('/articles/reset-your-password'));
    expect(article).toMatchObject({ focusVisible: true, indicator: true });
    await page.keyboard.press('Enter');
    await page.waitForURL('**/articles/reset-your-password');
    // On to the feedback form's first control, by Tab alone.
    const yes = await tabUntil(page, (el) => el.tag === 'button' || (el.tag === 'input' && el.type === 'radio'), 80);
    expect(yes).toMatchObject({ focusVisible: true, indicator: true });
    expect(await focusedElement(page)).not.toBeNull();
    expectCleanRun(page);
  });

  describe('each page: axe-core finds no serious or critical violation, it fits 360 px, screenshots kept', () => {
    const pages: Array<[string, () => string, number]> = [
      ['home', () => '/', 200],
      ['collection', () => `/collections/${f.billingShortId}`, 200],
      ['article', () => '/articles/reset-your-password', 200],
      ['article-fr-fallback', () => '/fr/articles/download-an-invoice', 200],
      ['search', () => '/search?q=password', 200],
      ['search-empty', () => '/search?q=zebra', 200],
      ['not-found', () => '/articles/no-such-article', 404],
    ];

    it.each(pages)('%s', async (name, path, status) => {
      const { page } = await open(path(), status);
      const violations = await runAxe(page);
      const serious = seriousViolations(violations);
      expect({ page: name, serious: describeViolations(serious) }).toEqual({ page: name, serious: '' });
      await page.setViewportSize(VIEWPORTS[0]);
      expect({ page: name, scrollsSideways: await overflowsHorizontally(page) }).toEqual({ page: name, scrollsSideways: false });
      const mobile = seriousViolations(await runAxe(page));
      expect({ page: `${name} at 360 px`, serious: describeViolations(mobile) }).toEqual({ page: `${name} at 360 px`, serious: '' });
      const files = await screenshots(page, `help-center-${name}`);
      expect(files).toHaveLength(2);
      // Minor and moderate findings are not failures; they are printed to be looked at.
      const rest = violations.filter((v) => !serious.includes(v));
      if (rest.length > 0) process.stdout.write(`axe, ${name}: ${describeViolations(rest)}\n`);
      expectCleanRun(page, status);
    });
  });
});
