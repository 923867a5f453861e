import { describe, expect, it } from '@jest/globals';
import type { Feed, Sitemap } from '#content';
import { atomFeed, robotsTxt, SITEMAP_MAX_URLS, sitemapPartXml, sitemapXml, xmlText } from './feeds.js';

const DATE = new Date('2026-11-20T10:30:00.000Z');
const LOCALE = { requested: 'en', defaultLanguage: 'en', languages: ['en', 'fr'] };
const HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(1)> & \u0001\u0008 ]]>';

describe('sitemap, feed and robots', () => {
  it('escapes XML text and leaves out what XML 1.0 cannot carry', () => {
    expect(xmlText(HOSTILE)).toBe('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(1)&gt; &amp;  ]]&gt;');
    expect(xmlText('a\ud800b 😀')).toBe('ab 😀');
  });

  it('sitemap: each language of each live article with lastmod and its alternates, collections, the home pages', () => {
    const sitemap: Sitemap = {
      locale: LOCALE,
      articles: [
        { slug: 'both', lastModified: DATE, languages: ['en', 'fr'] },
        { slug: 'english-only', lastModified: DATE, languages: ['en'] },
      ],
      collections: [{ shortId: 'billing', lastModified: DATE }],
    };
    const xml = sitemapXml(sitemap, 'https://help.example.com');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">')).toBe(true);
    const alternates =
      '<xhtml:link rel="alternate" hreflang="en" href="https://help.example.com/articles/both"/><xhtml:link rel="alternate" hreflang="fr" href="https://help.example.com/fr/articles/both"/><xhtml:link rel="alternate" hreflang="x-default" href="https://help.example.com/articles/both"/>';
    expect(xml).toContain(`<url><loc>https://help.example.com/articles/both</loc><lastmod>2026-11-20T10:30:00.000Z</lastmod>${alternates}</url>`);
    expect(xml).toContain(`<url><loc>https://help.example.com/fr/articles/both</loc><lastmod>2026-11-20T10:30:00.000Z</lastmod>${alternates}</url>`);
    expect(xml).toContain('<url><loc>https://help.example.com/articles/english-only</loc><lastmod>2026-11-20T10:30:00.000Z</lastmod></url>');
    expect(xml).not.toContain('/fr/articles/english-only');
    expect(xml).toContain('<loc>https://help.example.com/fr/collections/billing</loc>');
    expect(xml).toContain('<loc>https://help.example.com/fr/</loc>');
  });

  it('sitemap past its URL limit: an index of numbered parts, each at most the limit, together every URL once', () => {
    expect(SITEMAP_MAX_URLS).toBe(50_000);
    const later = new Date('2026-11-22T08:00:00.000Z');
    const sitemap: Sitemap = {
      locale: { requested: 'en', defaultLanguage: 'en', languages: ['en'] },
      collections: [],
      articles: Array.from({ length: 9 }, (_, i) => ({ slug: `a${i}`, lastModified: i === 7 ? later : DATE, languages: ['en'] })),
    };
    // Ten URLs (the home page, whose lastmod is the newest change, and nine articles), four per part: three parts,
    // each dated by the newest change it lists.
    const index = sitemapXml(sitemap, 'https://help.example.com', 4);
    expect(index).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
        '<sitemap><loc>https://help.example.com/sitemaps/1.xml</loc><lastmod>2026-11-22T08:00:00.000Z</lastmod></sitemap>' +
        '<sitemap><loc>https://help.example.com/sitemaps/2.xml</loc><lastmod>2026-11-20T10:30:00.000Z</lastmod></sitemap>' +
        '<sitemap><loc>https://help.example.com/sitemaps/3.xml</loc><lastmod>2026-11-22T08:00:00.000Z</lastmod></sitemap>' +
        '</sitemapindex>\n',
    );
    const parts = [1, 2, 3].map((n) => sitemapPartXml(sitemap, 'https://help.example.com', n, 4)!);
    const locs = parts.map((xml) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]));
    expect(locs.map((l) => l.length)).toEqual([4, 4, 2]);
    expect(locs.flat()).toEqual(['https://help.example.com/', ...sitemap.articles.map((a) => `https://help.example.com/articles/${a.slug}`)]);
    expect(parts[0]!.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset ')).toBe(true);
    for (const n of [0, 4, -1]) expect(sitemapPartXml(sitemap, 'https://help.example.com', n, 4)).toBeNull();
    // Within the limit: one file, and no parts.
    expect(sitemapXml(sitemap, 'https://help.example.com', 10)).toContain('<urlset ');
    expect(sitemapPartXml(sitemap, 'https://help.example.com', 1, 10)).toBeNull();
  });

  it('feed: Atom with self link, entries newest first, hostile titles escaped', () => {
    const article = { id: 'art_1', slug: 'hostile', title: HOSTILE, summary: HOSTILE, language: 'en', fallback: false, updatedAt: DATE, publishedAt: DATE };
    const feed: Feed = { branding: { name: `Acme ${HOSTILE}`, logoUrl: null, accentColor: null, footerLinks: [] }, locale: { ...LOCALE, requested: 'fr' }, lastModified: DATE, articles: [{ ...article, fallback: true }] };
    const xml = atomFeed(feed, 'https://help.example.com');
    expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="fr">');
    expect(xml).toContain('<link rel="self" type="application/atom+xml" href="https://help.example.com/fr/feed.xml"/>');
    expect(xml).toContain('<entry xml:lang="en"><title>&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(1)&gt; &amp;  ]]&gt;</title>');
    expect(xml).toContain('<link rel="alternate" type="text/html" hreflang="en" href="https://help.example.com/articles/hostile"/>');
    expect(xml).not.toMatch(/<script|<img/);
    expect(xml).not.toContain('\u0001');
  });

  it('robots.txt points at the sitemap, keeps search results and the API out', () => {
    expect(robotsTxt('https://help.example.com/help/')).toBe(
      'User-agent: *\nAllow: /help/\nDisallow: /help/search\nDisallow: /help/*/search\nDisallow: /help/v1/\n\nSitemap: https://help.example.com/help/sitemap.xml\n',
    );
  });
});
