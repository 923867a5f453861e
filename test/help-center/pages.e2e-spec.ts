import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Response } from 'supertest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';
import { errorBody } from '../support/errors.js';
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
    t = await startTestApp({ env: { ...NO_LIMITS, RATE_LIMIT_PUBLIC_FEEDBACK_PER_MINUTE: '1000' } });
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

  const html = (path: string) => t.http.get(path).expect('Content-Type', 'text/html; charset=utf-8');

  describe('every page, in English and in French', () => {
    const PAGES: Array<[string, (lang: string) => string]> = [
      ['home', (lang) => `${lang}/`],
      ['section', (lang) => `${lang}/sections/${f.sectionId}`],
      ['collection', (lang) => `${lang}/collections/${f.billingShortId}`],
      ['article', (lang) => `${lang}/articles/${f.details.slug}`],
      ['search', (lang) => `${lang}/search?q=billing`],
    ];

    it.each(PAGES.flatMap(([name, path]) => [[name, 'en', path, ''], [name, 'fr', path, '/fr']] as const))('%s (%s): 200, lang, headers, validators, links in that language', async (_name, lang, path, prefix) => {
      const res = await html(path(prefix)).expect(200);
      expect(res.text.startsWith(`<!DOCTYPE html><html lang="${lang}" dir="ltr">`)).toBe(true);
      expectPageHeaders(res);
      expect(res.headers['content-language']).toBe(lang);
      expect(res.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
      expect(res.headers['etag']).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
      expect(new Date(res.headers['last-modified']!).getTime()).not.toBeNaN();
      expect(res.text).toContain(`<title>`);
      expect(res.text).toContain(NAME);
      expect(res.text).toContain(lang === 'fr' ? 'action="/fr/search"' : 'action="/search"');
      expect(res.text).toMatch(lang === 'fr' ? /hreflang="fr" lang="fr" aria-current="true">Français</ : /hreflang="en" lang="en" aria-current="true">English</);
      // No page asks for anything elsewhere: stylesheets and the script come from /assets.
      for (const [, url] of res.text.matchAll(/<(?:link rel="stylesheet"|script) [^>]*(?:href|src)="([^"]+)"/g)) expect(url).toMatch(/^\/assets\//);
    });

    it('home: sections and collections (titles in the page\'s language), recent articles', async () => {
      const en = (await html('/').expect(200)).text;
      expect(en).toContain(`<a href="/collections/${f.billingShortId}">Billing and payments</a>`);
      expect(en).toContain('<a href="/articles/download-an-invoice">Download an invoice</a>');
      const fr = (await html('/fr/').expect(200)).text;
      expect(fr).toContain(`<a href="/fr/collections/${f.billingShortId}">Facturation et paiements</a>`);
      expect(fr).toContain('Comment pouvons-nous vous aider\u202f?');
      // Not translated: the English title, marked as English inside the French page.
      expect(fr).toContain('<a href="/fr/articles/download-an-invoice" lang="en">Download an invoice</a>');
    });

    it('collection: breadcrumbs and live articles only', async () => {
      const page = (await html(`/collections/${f.billingShortId}`).expect(200)).text;
      expect(page).toContain('<nav id="breadcrumbs" class="breadcrumbs" aria-label="Breadcrumb">');
      expect(page).toContain('<h1>Billing and payments</h1>');
      expect(page).toContain('Download an invoice');
      expect(page).not.toContain('Unreleased pricing');
      expect(page).not.toContain('Retired plan');
      expect((await html(`/fr/collections/${f.billingShortId}`).expect(200)).text).toContain('<h1>Facturation et paiements</h1>');
    });

    it('article: TOC, last updated, JSON-LD, canonical and alternates; the French translation in French', async () => {
      const en = (await html(`/articles/${f.invoice.slug}`).expect(200)).text;
      expect(en).toContain('<h1>Download an invoice</h1>');
      expect(en).toMatch(/<nav id="toc" class="toc" aria-label="Contents"><h2>Contents<\/h2><ol><li class="level-2"><a href="#older-invoices">Older invoices<\/a><\/li><\/ol><\/nav>/);
      expect(en).toContain('<h2 id="older-invoices">Older invoices</h2>');
      expect(en).toMatch(/Last updated <time datetime="\d{4}-\d\d-\d\dT[\d:.]+Z">/);
      expect(en).toContain('<link rel="canonical" href="http://help.test/articles/download-an-invoice"/>');
      expect(en).toContain('<meta name="keywords" content="invoice, pdf"/>');
      expect(en).toContain('<meta property="og:image" content="https://cdn.example.com/invoice.png"/>');
      expect(jsonLd(en).map((data) => data['@type'])).toEqual(['Article', 'BreadcrumbList']);
      expect(jsonLd(en)[0]).toMatchObject({ headline: 'Download an invoice', description: 'Find and download your invoices.', inLanguage: 'en', url: 'http://help.test/articles/download-an-invoice' });

      const fr = (await html(`/fr/articles/${f.details.slug}`).expect(200)).text;
      expect(fr).toContain('<article id="article"><h1>Mettre à jour vos informations de facturation</h1>');
      expect(fr).toContain(`<link rel="alternate" hreflang="fr" href="http://help.test/fr/articles/${f.details.slug}"/>`);
      expect(fr).toContain(`<link rel="alternate" hreflang="x-default" href="http://help.test/articles/${f.details.slug}"/>`);
      expect(fr).not.toContain('class="notice"');
    });

    it('article without a French translation: the English text, said so, lang="en" on it, canonical to the English page', async () => {
      const fr = (await html(`/fr/articles/${f.invoice.slug}`).expect(200)).text;
      expect(fr).toContain('<html lang="fr" dir="ltr">');
      expect(fr).toContain('<p class="notice" role="note">Cet article n’est pas encore disponible en Français\u202f; il est affiché en English.</p>');
      expect(fr).toContain('<article id="article" lang="en"><h1>Download an invoice</h1>');
      expect(fr).toContain('<link rel="canonical" href="http://help.test/articles/download-an-invoice"/>');
    });

    it('search: the query in the box, highlighted snippets, live articles only; an empty state that helps', async () => {
      const found = (await html('/search?q=invoice').expect(200)).text;
      expect(found).toContain('<input type="search" name="q" value="invoice"');
      expect(found).toMatch(/<a href="\/articles\/download-an-invoice">Download an invoice<\/a><p>[^<]*<mark>[Ii]nvoice/);
      expect(found).toContain('<meta name="robots" content="noindex"/>');
      expect((await html('/search?q=retired').expect(200)).text).not.toContain('Retired plan');
      const none = (await html('/search?q=zebra%20quasar').expect(200)).text;
      expect(none).toContain('No articles match “zebra quasar”.');
      expect(none).toContain('<a href="/">Browse all topics</a>');
      expect((await html('/fr/search?q=zebra').expect(200)).text).toContain('Aucun article ne correspond à «\u202fzebra\u202f».');
      expect((await html('/search').expect(200)).text).toContain('Type a few words in the search box');
      // Odd parameters are not errors: unknown ones are ignored, a bad page number is page 1.
      expect((await html('/search?q=invoice&page=abc&utm_source=mail').expect(200)).text).toContain('Download an invoice');
    });

    it('HEAD answers the same headers without a body', async () => {
      const res = await t.http.head('/').expect(200);
      expectPageHeaders(res);
      expect(res.headers['etag']).toBe((await t.http.get('/').expect(200)).headers['etag']);
      expect(res.text).toBeUndefined();
    });
  });

  describe('not found, moved', () => {
    it.each([
      ['a draft', () => `/articles/${f.draftSlug}`],
      ['a trashed article', () => `/articles/${f.trashedSlug}`],
      ['an unknown slug', () => '/articles/no-such-article'],
      ['an unknown collection', () => '/collections/nope'],
      ['an unknown section', () => '/sections/sect_unknown'],
      ['a language that is not enabled', () => '/de/'],
      ['an article in a language that is not enabled', () => `/de/articles/${f.invoice.slug}`],
    ])('%s is the 404 page (never stored, CSP, the search box, in the branding)', async (_label, path) => {
      const res = await html(path()).expect(404);
      expectPageHeaders(res);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.text).toContain('<h1>We couldn’t find that page</h1>');
      expect(res.text).toContain(`<title>Page not found | ${NAME}</title>`);
      expect(res.text).toContain('<meta name="robots" content="noindex"/>');
      expect(res.text).toContain('<input type="search" name="q"');
      expect(res.text).not.toContain('Unreleased pricing');
    });

    it('in French when the prefix is French', async () => {
      expect((await html(`/fr/articles/${f.draftSlug}`).expect(404)).text).toContain('<h1>Nous n’avons pas trouvé cette page</h1>');
    });

    it('paths that are not the site\'s stay the API\'s JSON 404', async () => {
      for (const path of ['/nope', '/v1/nope', '/v1/search', '/v1/feed.xml', '/healthz/extra', '/favicon.ico']) {
        const res = await t.http.get(path).expect(404);
        expect({ path, body: res.body }).toEqual({ path, body: errorBody('not_found') });
      }
    });

    it('a changed slug answers 301 to the current one, in each language, revalidated like a page', async () => {
      const created = await ok<{ id: string; slug: string }>(t.http.post('/v1/articles').send({ title: 'Change your email', sectionId: f.sectionId, markdown: 'Where we write to you.', slug: 'change-email', publish: true }), 201);
      await ok(t.http.patch(`/v1/articles/${created.id}`).send({ slug: 'change-your-email-address' }), 200);
      const moved = await t.http.get('/articles/change-email').expect(301);
      expect(moved.headers['location']).toBe('/articles/change-your-email-address');
      expect(moved.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
      expect((await t.http.get('/fr/articles/change-email').expect(301)).headers['location']).toBe('/fr/articles/change-your-email-address');
      expect((await html('/articles/change-your-email-address').expect(200)).text).toContain('<h1>Change your email</h1>');
    });
  });

  describe('caching', () => {
    it('304 on If-None-Match and on If-Modified-Since; 200 again once the page changed', async () => {
      const path = `/articles/${f.details.slug}`;
      const first = await html(path).expect(200);
      const etag = first.headers['etag']!;
      const lastModified = first.headers['last-modified']!;
      const notModified = await t.http.get(path).set('If-None-Match', etag).expect(304);
      expect(notModified.text).toBe('');
      expect(notModified.headers['etag']).toBe(etag);
      expect(notModified.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
      await t.http.get(path).set('If-None-Match', `"other", ${etag}`).expect(304);
      await t.http.get(path).set('If-Modified-Since', lastModified).expect(304);
      await t.http.get(path).set('If-None-Match', '"stale"').set('If-Modified-Since', lastModified).expect(200);

      // A publish shows on the next request: new title, new tag, a later Last-Modified.
      await ok(t.http.patch(`/v1/articles/${f.details.id}`).send({ title: 'Update your billing details and address', publish: true }), 200);
      const changed = await t.http.get(path).set('If-None-Match', etag).expect(200);
      expect(changed.text).toContain('<h1>Update your billing details and address</h1>');
      expect(changed.headers['etag']).not.toBe(etag);
      expect(Date.parse(changed.headers['last-modified']!)).toBeGreaterThanOrEqual(Date.parse(lastModified));
      // …and so does an unpublish, on the article and on the pages that listed it.
      const collection = await html(`/collections/${f.billingShortId}`).expect(200);
      await ok(t.http.post(`/v1/articles/${f.details.id}/unpublish`), 200);
      await html(path).set('If-None-Match', changed.headers['etag']!).expect(404);
      const after = await t.http.get(`/collections/${f.billingShortId}`).set('If-None-Match', collection.headers['etag']!).expect(200);
      expect(after.text).not.toContain('Update your billing details');
      await ok(t.http.post(`/v1/articles/${f.details.id}/publish`), 200);
    });

    it('sitemap, feed and robots revalidate too', async () => {
      for (const path of ['/sitemap.xml', '/feed.xml', '/robots.txt']) {
        const res = await t.http.get(path).expect(200);
        expect(res.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
        await t.http.get(path).set('If-None-Match', res.headers['etag']!).expect(304);
      }
    });

    it('assets: hashed names, immutable for a year; another version\'s hash gets this version\'s file, not stored; unknown names 404', async () => {
      const page = (await html('/').expect(200)).text;
      const urls = [...page.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
      expect(urls).toEqual([expect.stringMatching(/^\/assets\/site\.\w{12}\.css$/), expect.stringMatching(/^\/assets\/theme-0b6e4f\.\w{12}\.css$/), expect.stringMatching(/^\/assets\/help-center\.\w{12}\.js$/)]);
      for (const url of urls) {
        const res = await t.http.get(url).expect(200);
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['content-type']).toMatch(url.endsWith('.js') ? /^text\/javascript; charset=utf-8$/ : /^text\/css; charset=utf-8$/);
        await t.http.get(url).set('If-None-Match', res.headers['etag']!).expect(304);
      }
      expect((await t.http.get(urls[1]!)).text).toContain('--accent:#0b6e4f');
      // Another version's hash (a page of a newer or older process in a rolling deploy): this version's file, never stored.
      const stylesheet = await t.http.get(urls[0]!);
      const standIns: Array<[string, string]> = [
        ['/assets/site.000000000000.css', stylesheet.text],
        [urls[2]!.replace(/\.\w{12}\.js$/, '.AAAAAAAAAAAA.js'), (await t.http.get(urls[2]!)).text],
      ];
      for (const [url, body] of standIns) {
        const res = await t.http.get(url).expect(200);
        expect(res.text).toBe(body);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.headers['etag']).toBeUndefined();
      }
      const otherAccent = await t.http.get(urls[1]!.replace('0b6e4f', '0b6e50')).expect(200);
      expect(otherAccent.text).toContain('--accent:#0b6e50');
      expect(otherAccent.headers['cache-control']).toBe('no-store');
      for (const url of ['/assets/nope.js', '/assets/site.css', '/assets/site.000000000000.js', '/assets/help-center.000000000000.css', '/assets/theme-zzzzzz.000000000000.css']) {
        const res = await t.http.get(url).expect(404);
        expect(res.headers['cache-control']).toBe('no-store');
      }
    });
  });

  describe('sitemap, robots, feed', () => {
    it('sitemap.xml: live articles in each language they are live in, with lastmod and alternates; no drafts, no trashed', async () => {
      const res = await t.http.get('/sitemap.xml').expect(200).expect('Content-Type', 'application/xml; charset=utf-8');
      const xml = res.text;
      expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">');
      expect(xml).toMatch(new RegExp(`<url><loc>http://help.test/fr/articles/${f.details.slug}</loc><lastmod>[^<]+</lastmod><xhtml:link rel="alternate" hreflang="en" href="http://help.test/articles/${f.details.slug}"/><xhtml:link rel="alternate" hreflang="fr" href="http://help.test/fr/articles/${f.details.slug}"/><xhtml:link rel="alternate" hreflang="x-default" href="http://help.test/articles/${f.details.slug}"/></url>`));
      expect(xml).toMatch(/<url><loc>http:\/\/help.test\/articles\/download-an-invoice<\/loc><lastmod>\d{4}-\d\d-\d\dT[\d:.]+Z<\/lastmod><\/url>/);
      expect(xml).not.toContain('/fr/articles/download-an-invoice');
      expect(xml).toContain(`<loc>http://help.test/collections/${f.billingShortId}</loc>`);
      expect(xml).not.toContain(f.draftSlug);
      expect(xml).not.toContain(f.trashedSlug);
      expectPageHeaders(res);
      // A sitemap this small is one file: there are no numbered parts.
      for (const path of ['/sitemaps/1.xml', '/sitemaps/0.xml', '/sitemaps/x.xml']) await t.http.get(path).expect(404);
    });

    it('robots.txt points at the sitemap', async () => {
      const res = await t.http.get('/robots.txt').expect(200).expect('Content-Type', 'text/plain; charset=utf-8');
      expect(res.text).toContain('Sitemap: http://help.test/sitemap.xml');
      expect(res.text).toContain('Disallow: /search');
    });

    it('feed.xml: Atom, recently published first, in each language', async () => {
      const en = await t.http.get('/feed.xml').expect(200).expect('Content-Type', 'application/atom+xml; charset=utf-8');
      expect(en.text).toContain('<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en"><title>Acme Help</title>');
      expect(en.text).toContain('<link rel="alternate" type="text/html" hreflang="en" href="http://help.test/articles/download-an-invoice"/>');
      expect(en.text).not.toContain('Unreleased pricing');
      expect(en.text).not.toContain('Retired plan');
      const fr = await t.http.get('/fr/feed.xml').expect(200);
      expect(fr.text).toContain('xml:lang="fr"');
      expect(fr.text).toContain('<link rel="self" type="application/atom+xml" href="http://help.test/fr/feed.xml"/>');
    });
  });

  describe('hostile titles and content', () => {
    const ESCAPED_TITLE = '&lt;script>alert(1)&lt;/script> &quot;>&lt;img src=x onerror=alert(1)>';

    function expectNothingUnescaped(text: string): void {
      expect(text).not.toMatch(/<script>alert|<img src=x|<\/script><script>/);
      expect(text).not.toMatch(/"><img/);
    }

    it.each([
      ['the article page', () => `/articles/${f.hostile.slug}`],
      ['the article page in French', () => `/fr/articles/${f.hostile.slug}`],
      ['its collection', () => `/collections/${f.hostileShortId}`],
      ['the home page', () => '/'],
      ['search', () => `/search?q=${encodeURIComponent('alert img')}`],
      ['a hostile query', () => `/search?q=${encodeURIComponent(HOSTILE_TITLE)}`],
    ])('%s: never unescaped in the HTML or its JSON-LD', async (_label, path) => {
      const res = await html(path()).expect(200);
      expectNothingUnescaped(res.text);
      for (const block of res.text.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)) expect(block[1]).not.toMatch(/[<>]/);
    });

    it('the article keeps the text as text: title, meta, TOC, body, JSON-LD reading back the original', async () => {
      const page = (await html(`/articles/${f.hostile.slug}`).expect(200)).text;
      expect(page).toContain(`<h1>${ESCAPED_TITLE}</h1>`);
      expect(page).toContain(`<title>${ESCAPED_TITLE} | ${NAME}</title>`);
      expect(page).toContain('<meta name="keywords" content="&lt;script>alert(1)&lt;/script> &quot;>&lt;img src=x onerror=alert(1)>"/>');
      expect(jsonLd(page)[0]).toMatchObject({ headline: HOSTILE_TITLE, keywords: HOSTILE_TITLE });
      expect((jsonLd(page)[1]!['itemListElement'] as Array<{ name: string }>).map((item) => item.name)).toContain(HOSTILE_TITLE);
      // The Markdown's raw HTML is text in the body, never markup.
      expect(page).toContain('<p>&lt;script&gt;alert(3)&lt;/script&gt;</p>');
      expect(page).toMatch(/<nav id="toc"[^]*?<a href="#[a-z0-9-]+">&lt;script>alert\(1\)&lt;\/script> &quot;>&lt;img src=x onerror=alert\(1\)><\/a>/);
    });

    it('the feed and the sitemap escape it too', async () => {
      const feed = (await t.http.get('/feed.xml').expect(200)).text;
      expect(feed).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt; &quot;&gt;&lt;img src=x onerror=alert(1)&gt;</title>');
      expectNothingUnescaped(feed);
      expectNothingUnescaped((await t.http.get('/sitemap.xml').expect(200)).text);
    });
  });

  describe('feedback without JavaScript', () => {
    const form = (path: string, fields: Record<string, string>) => t.http.post(path).type('form').send(new URLSearchParams(fields).toString());

    async function stored(articleId: string): Promise<Array<{ type: string; feedback: string; email: string | null }>> {
      return (await ok<{ results: Array<{ type: string; feedback: string; email: string | null }> }>(t.http.get(`/v1/feedback?article_id=${articleId}`), 200)).results;
    }

    it('a plain form POST is stored and answered 303 back to the article, anchored on the thank-you', async () => {
      const res = await form(`/articles/${f.invoice.slug}/feedback`, { article: f.invoice.id, type: 'positive', feedback: 'Clear, thanks.', email: 'Reader@Example.com' }).expect(303);
      expect(res.headers['location']).toBe(`/articles/${f.invoice.slug}?feedback=sent#feedback`);
      expect(await stored(f.invoice.id)).toEqual([expect.objectContaining({ type: 'positive', feedback: 'Clear, thanks.', email: 'reader@example.com' })]);
      const thanks = (await html(`/articles/${f.invoice.slug}?feedback=sent`).expect(200)).text;
      expect(thanks).toContain('<p id="feedback-thanks" class="thanks" role="status">Thank you for your feedback!</p>');
      expect(thanks).not.toContain('id="feedback-form"');
    });

    it('a yes or no without a comment, from a French page, back to the French page', async () => {
      const res = await form(`/fr/articles/${f.details.slug}/feedback`, { article: f.details.id, type: 'negative' }).expect(303);
      expect(res.headers['location']).toBe(`/fr/articles/${f.details.slug}?feedback=sent#feedback`);
      expect(await stored(f.details.id)).toEqual([expect.objectContaining({ type: 'negative', feedback: '(no comment)', email: null })]);
    });

    it.each([
      ['no yes or no', { feedback: 'Hmm' }],
      ['a bad email', { type: 'positive', email: 'not an email' }],
      ['no article', { type: 'positive', article: '' }],
      ['NUL in the comment', { type: 'positive', feedback: 'a\u0000b' }],
    ])('%s: a 400 page with the way back, nothing stored', async (_label, fields) => {
      const before = (await stored(f.hostile.id)).length;
      const res = await form(`/articles/${f.hostile.slug}/feedback`, { article: f.hostile.id, ...fields }).expect(400);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expectPageHeaders(res);
      expect(res.text).toContain('<h1>Something was not right</h1>');
      expect(res.text).toContain(`<a href="/articles/${f.hostile.slug}#feedback">Back to the article</a>`);
      expect((await stored(f.hostile.id)).length).toBe(before);
    });

    it('a draft is a 404 page', async () => {
      const draft = await ok<{ id: string }>(t.http.post('/v1/articles').send({ title: 'Draft for feedback', sectionId: f.sectionId, markdown: 'Not live.' }), 201);
      await form('/articles/draft-for-feedback/feedback', { article: draft.id, type: 'positive' }).expect(404);
    });

    it('a form larger than 16 KiB is refused with a 400 page', async () => {
      const res = await form(`/articles/${f.invoice.slug}/feedback`, { article: f.invoice.id, type: 'positive', feedback: 'x'.repeat(17 * 1024) }).expect(400);
      expect(res.text).toContain('Something was not right');
    });
  });

  it('the 429 page: polite, Retry-After, the way back; the JSON endpoint shares the per-IP budget', async () => {
    const limited = await startTestApp({ env: { RATE_LIMIT_PUBLIC_FEEDBACK_PER_MINUTE: '1' } });
    try {
      const limitedKey = await limited.key(null);
      const sectionId = await defaultSectionId(limited, limitedKey);
      const created = (await limited.http.post('/v1/articles').set(bearer(limitedKey)).send({ title: 'Limited', sectionId, markdown: 'Text.', publish: true }).expect(201)).body as { id: string; slug: string };
      await limited.http.post(`/v1/public/articles/${created.id}/feedback`).send({ type: 'positive', feedback: 'Via JSON' }).expect(201);
      const res = await limited.http.post(`/articles/${created.slug}/feedback`).type('form').send(`article=${created.id}&type=negative&feedback=Again`).expect(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expectPageHeaders(res);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.text).toContain('<h1>Too many requests</h1>');
      expect(res.text).toContain(`Please wait ${res.headers['retry-after']} seconds`);
      expect(res.text).toContain(`<a href="/articles/${created.slug}#feedback">Back to the article</a>`);
      const all = (await limited.http.get(`/v1/feedback?article_id=${created.id}`).set(bearer(limitedKey)).expect(200)).body as { results: unknown[] };
      expect(all.results).toHaveLength(1);
    } finally {
      await limited.close();
    }
  });
});
