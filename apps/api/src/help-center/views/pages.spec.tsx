import { describe, expect, it } from '@jest/globals';
import type { ArticleLink, ArticlePage, CollectionLink, CollectionPage, HomePage, SearchPage, SectionLink, SectionPage, SiteBranding, SiteLocale } from '#content';
import { pageContext } from './page-context.js';
import { renderPage } from './pages.js';

// Pages as the help-center use cases return them (no database).

const SAMPLE_DATE = new Date('2026-11-20T10:30:00.000Z');

function sampleLocale(requested = 'en'): SiteLocale {
  return { requested, defaultLanguage: 'en', languages: ['en', 'fr'] };
}

function sampleBranding(changes: Partial<SiteBranding> = {}): SiteBranding {
  return { name: 'Acme Help', logoUrl: null, accentColor: '#0b6e4f', footerLinks: [{ label: 'Status', url: 'https://status.example.com' }], ...changes };
}

function sampleSection(changes: Partial<SectionLink> = {}): SectionLink {
  return { id: 'sect_1', name: 'Getting started', language: 'en', fallback: false, ...changes };
}

function sampleCollection(changes: Partial<CollectionLink> = {}): CollectionLink {
  return { id: 'coll_1', shortId: 'billing', title: 'Billing', description: 'Invoices and cards', articleCount: 2, language: 'en', fallback: false, ...changes };
}

function sampleArticleLink(changes: Partial<ArticleLink> = {}): ArticleLink {
  return { id: 'art_1', slug: 'download-an-invoice', title: 'Download an invoice', summary: 'Every invoice is a PDF.', language: 'en', fallback: false, updatedAt: SAMPLE_DATE, publishedAt: SAMPLE_DATE, ...changes };
}

function sampleHome(changes: Partial<HomePage> = {}): HomePage {
  return {
    branding: sampleBranding(),
    locale: sampleLocale(),
    lastModified: SAMPLE_DATE,
    sections: [{ section: sampleSection(), collections: [{ ...sampleCollection(), children: [{ ...sampleCollection({ id: 'coll_2', shortId: 'refunds', title: 'Refunds', articleCount: 1 }), children: [] }] }] }],
    recentArticles: [sampleArticleLink()],
    ...changes,
  };
}

function sampleSectionPage(changes: Partial<SectionPage> = {}): SectionPage {
  return { branding: sampleBranding(), locale: sampleLocale(), lastModified: SAMPLE_DATE, section: sampleSection(), collections: [{ ...sampleCollection(), children: [] }], articles: [sampleArticleLink({ id: 'art_9', slug: 'welcome', title: 'Welcome' })], ...changes };
}

function sampleCollectionPage(changes: Partial<CollectionPage> = {}): CollectionPage {
  return {
    branding: sampleBranding(),
    locale: sampleLocale(),
    lastModified: SAMPLE_DATE,
    collection: sampleCollection(),
    breadcrumbs: [{ kind: 'section', section: sampleSection() }],
    subcollections: [sampleCollection({ id: 'coll_2', shortId: 'refunds', title: 'Refunds', articleCount: 1 })],
    articles: [sampleArticleLink()],
    ...changes,
  };
}

function sampleArticlePage(changes: Omit<Partial<ArticlePage>, 'article'> & { article?: Partial<ArticlePage['article']> } = {}): ArticlePage {
  const { article, ...rest } = changes;
  return {
    branding: sampleBranding(),
    locale: sampleLocale(),
    lastModified: SAMPLE_DATE,
    article: {
      ...sampleArticleLink(),
      html: '<p>Every invoice is in <strong>Billing</strong>.</p><h2 id="older-invoices">Older invoices</h2><p>Kept for seven years.</p>',
      metaDescription: 'Find and download your invoices.',
      keywords: 'invoice, billing',
      ogImage: 'https://cdn.example.com/invoice.png',
      ...article,
    },
    toc: [{ id: 'older-invoices', text: 'Older invoices', level: 2 }],
    breadcrumbs: [{ kind: 'section', section: sampleSection() }, { kind: 'collection', collection: sampleCollection() }],
    related: [sampleArticleLink({ id: 'art_2', slug: 'update-billing-details', title: 'Update your billing details' })],
    previous: sampleArticleLink({ id: 'art_3', slug: 'change-card', title: 'Change your card' }),
    next: null,
    availableLanguages: ['en'],
    ...rest,
  };
}

function sampleSearchPage(changes: Partial<SearchPage> = {}): SearchPage {
  return {
    branding: sampleBranding(),
    locale: sampleLocale(),
    lastModified: SAMPLE_DATE,
    query: 'invoice',
    results: [{ ...sampleArticleLink(), snippet: 'Every <mark>invoice</mark> is a PDF.' }],
    page: 1,
    hasNextPage: true,
    ...changes,
  };
}

const PUBLIC_URL = 'https://help.example.com';

function render<T>(page: T & { branding: SiteBranding; locale: SiteLocale }, draw: (context: ReturnType<typeof pageContext>, page: T) => string): string {
  return draw(pageContext(page.branding, page.locale, PUBLIC_URL), page);
}

/** Every <script type="application/ld+json"> block, parsed. */
function jsonLd(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
}

/** The attributes of every element with this tag, in order. */
function tags(html: string, tag: string): string[] {
  return [...html.matchAll(new RegExp(`<${tag}\\b[^>]*>`, 'g'))].map((m) => m[0]);
}

const article = (page = sampleArticlePage(), feedbackSent = false) => render(page, (c, p) => renderPage.article(c, p, { feedbackSent }));

describe('help center views', () => {
  describe('every page', () => {
    const pages: Array<[string, () => string]> = [
      ['home', () => render(sampleHome(), renderPage.home)],
      ['section', () => render(sampleSectionPage(), renderPage.section)],
      ['collection', () => render(sampleCollectionPage(), renderPage.collection)],
      ['article', () => article()],
      ['search', () => render(sampleSearchPage(), renderPage.search)],
      ['not found', () => render(sampleHome(), (c) => renderPage.error(c, 'not_found'))],
    ];

    it.each(pages)('%s: a document with lang, a skip link to main, the search box, the language switcher and no inline script or style', (_name, draw) => {
      const html = draw();
      expect(html.startsWith('<!DOCTYPE html><html lang="en" dir="ltr">')).toBe(true);
      expect(html).toContain('<a class="skip-link" href="#main">Skip to content</a>');
      expect(html).toContain('<main id="main" tabindex="-1">');
      expect(html).toMatch(/<form id="search" class="search-form" role="search" action="\/search" method="get">/);
      expect(html).toContain('<input type="search" name="q"');
      expect(html).toMatch(/<a href="[^"]*" hreflang="fr" lang="fr">Français<\/a>/);
      // Scripts only from the site (and JSON-LD data); stylesheets only as files; no style attribute, no handler.
      for (const script of tags(html, 'script')) expect(script).toMatch(/^<script (src="\/assets\/help-center\.[0-9A-Za-z]{12}\.js" defer|type="application\/ld\+json")>$/);
      expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
      expect(tags(html, 'link').filter((link) => link.includes('stylesheet'))).toEqual([
        expect.stringMatching(/href="\/assets\/site\.[0-9A-Za-z]{12}\.css"/),
        expect.stringMatching(/href="\/assets\/theme-0b6e4f\.[0-9A-Za-z]{12}\.css"/),
      ]);
      // The footer's links and the feed.
      expect(html).toContain('<a href="https://status.example.com">Status</a>');
      expect(html).toContain('<a href="/feed.xml">');
    });

    it('in French: lang="fr", French interface, links under /fr, the switcher marking the current language', () => {
      const html = render(sampleHome({ locale: sampleLocale('fr') }), renderPage.home);
      expect(html).toContain('<html lang="fr" dir="ltr">');
      expect(html).toContain('Aller au contenu');
      expect(html).toContain('<h1>Comment pouvons-nous vous aider\u202f?</h1>');
      expect(html).toContain('<a href="/fr/collections/billing">Billing</a>');
      expect(html).toContain('<a href="/fr/" hreflang="fr" lang="fr" aria-current="true">Français</a>');
      expect(html).toContain('<a href="/" hreflang="en" lang="en">English</a>');
      expect(html).toContain('action="/fr/search"');
    });

    it('right-to-left languages get dir="rtl"', () => {
      const html = render(sampleHome({ locale: { requested: 'ar', defaultLanguage: 'en', languages: ['en', 'ar'] } }), renderPage.home);
      expect(html).toContain('<html lang="ar" dir="rtl">');
    });

    it('interface text in another language than the page (no strings for it) is marked with its own lang', () => {
      const html = render(sampleHome({ locale: { requested: 'ja', defaultLanguage: 'en', languages: ['en', 'ja'] } }), renderPage.home);
      expect(html).toContain('<html lang="ja" dir="ltr">');
      expect(html).toContain('<header id="header" class="site-header" lang="en">');
      expect(html).toContain('<h1 lang="en">How can we help?</h1>');
    });

    it('a logo and footer links: http(s) and mailto only', () => {
      const branding = sampleBranding({
        logoUrl: 'https://cdn.example.com/logo.png',
        footerLinks: [
          { label: 'Mail us', url: 'mailto:help@example.com' },
          { label: 'Bad', url: 'javascript:alert(1)' },
        ],
      });
      const html = render(sampleHome({ branding }), renderPage.home);
      expect(html).toContain('<a class="brand" href="/"><img src="https://cdn.example.com/logo.png" alt/><span>Acme Help</span></a>');
      expect(html).toContain('<a href="mailto:help@example.com">Mail us</a>');
      expect(html).not.toContain('javascript:');
      expect(render(sampleHome({ branding: sampleBranding({ logoUrl: 'javascript:alert(1)' }) }), renderPage.home)).not.toContain('javascript:');
    });
  });

  describe('home', () => {
    it('sections with their collections (counts, nested ones) and recent articles', () => {
      const html = render(sampleHome(), renderPage.home);
      expect(html).toContain('<title>Acme Help</title>');
      expect(html).toContain('<h2><a href="/sections/sect_1">Getting started</a></h2>');
      expect(html).toContain('<h3><a href="/collections/billing">Billing</a></h3><p>Invoices and cards</p><p class="count">2 articles</p>');
      expect(html).toContain('<a href="/collections/refunds">Refunds</a> <span class="count">(1 article)</span>');
      expect(html).toContain('<h2>Recently updated</h2><ul class="article-list"><li><a href="/articles/download-an-invoice">Download an invoice</a><p>Every invoice is a PDF.</p></li></ul>');
      expect(jsonLd(html)).toEqual([expect.objectContaining({ '@type': 'WebSite', name: 'Acme Help', url: 'https://help.example.com/' })]);
    });

    it('an empty help center says so', () => {
      expect(render(sampleHome({ sections: [], recentArticles: [] }), renderPage.home)).toContain('No articles have been published yet.');
    });

    it('canonical and hreflang alternates for every enabled language, x-default the default one', () => {
      const html = render(sampleHome({ locale: sampleLocale('fr') }), renderPage.home);
      expect(html).toContain('<link rel="canonical" href="https://help.example.com/fr/"/>');
      expect(tags(html, 'link').filter((link) => link.includes('hreflang'))).toEqual([
        '<link rel="alternate" hreflang="en" href="https://help.example.com/"/>',
        '<link rel="alternate" hreflang="fr" href="https://help.example.com/fr/"/>',
        '<link rel="alternate" hreflang="x-default" href="https://help.example.com/"/>',
      ]);
    });
  });

  describe('section and collection', () => {
    it('a section: breadcrumbs, its collections and its own articles', () => {
      const html = render(sampleSectionPage(), renderPage.section);
      expect(html).toContain('<nav id="breadcrumbs" class="breadcrumbs" aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li><li aria-current="page">Getting started</li></ol></nav>');
      expect(html).toContain('<h1>Getting started</h1>');
      expect(html).toContain('<a href="/collections/billing">Billing</a>');
      expect(html).toContain('<a href="/articles/welcome">Welcome</a>');
    });

    it('a collection: breadcrumbs, description, subcollections, articles, BreadcrumbList', () => {
      const html = render(sampleCollectionPage(), renderPage.collection);
      expect(html).toContain('<li><a href="/sections/sect_1">Getting started</a></li><li aria-current="page">Billing</li>');
      expect(html).toContain('<p class="lead">Invoices and cards</p>');
      expect(html).toContain('<a href="/collections/refunds">Refunds</a>');
      expect(html).toContain('<a href="/articles/download-an-invoice">Download an invoice</a>');
      expect(jsonLd(html)[0]).toEqual({
        '@context': 'https://schema.org',
        '@type': 'BreadcrumbList',
        itemListElement: [
          { '@type': 'ListItem', position: 1, name: 'Home', item: 'https://help.example.com/' },
          { '@type': 'ListItem', position: 2, name: 'Getting started', item: 'https://help.example.com/sections/sect_1' },
          { '@type': 'ListItem', position: 3, name: 'Billing', item: 'https://help.example.com/collections/billing' },
        ],
      });
    });

    it('an empty collection says so', () => {
      expect(render(sampleCollectionPage({ subcollections: [], articles: [] }), renderPage.collection)).toContain('There are no articles here yet.');
    });

    it('a title shown in the default language inside a French page carries lang="en"', () => {
      const page = sampleCollectionPage({ locale: sampleLocale('fr'), collection: sampleCollection({ language: 'en', fallback: true }) });
      const html = render(page, renderPage.collection);
      expect(html).toContain('<h1 lang="en">Billing</h1>');
      expect(html).toContain('<h2>Articles</h2>');
    });
  });

  describe('article', () => {
    it('title, description, keywords, canonical, Open Graph and Twitter card with ogImage', () => {
      const html = article();
      expect(html).toContain('<title>Download an invoice | Acme Help</title>');
      expect(html).toContain('<meta name="description" content="Find and download your invoices."/>');
      expect(html).toContain('<meta name="keywords" content="invoice, billing"/>');
      expect(html).toContain('<link rel="canonical" href="https://help.example.com/articles/download-an-invoice"/>');
      expect(html).toContain('<meta property="og:type" content="article"/>');
      expect(html).toContain('<meta property="og:image" content="https://cdn.example.com/invoice.png"/>');
      expect(html).toContain('<meta name="twitter:card" content="summary_large_image"/>');
      expect(html).toContain('<meta property="article:modified_time" content="2026-11-20T10:30:00.000Z"/>');
    });

    it('JSON-LD Article and BreadcrumbList', () => {
      const [data, breadcrumbs] = jsonLd(article());
      expect(data).toEqual({
        '@context': 'https://schema.org',
        '@type': 'Article',
        headline: 'Download an invoice',
        description: 'Find and download your invoices.',
        keywords: 'invoice, billing',
        image: ['https://cdn.example.com/invoice.png'],
        inLanguage: 'en',
        datePublished: '2026-11-20T10:30:00.000Z',
        dateModified: '2026-11-20T10:30:00.000Z',
        url: 'https://help.example.com/articles/download-an-invoice',
        mainEntityOfPage: { '@type': 'WebPage', '@id': 'https://help.example.com/articles/download-an-invoice' },
        publisher: { '@type': 'Organization', name: 'Acme Help' },
      });
      expect((breadcrumbs!['itemListElement'] as unknown[]).at(-1)).toEqual({ '@type': 'ListItem', position: 4, name: 'Download an invoice', item: 'https://help.example.com/articles/download-an-invoice' });
    });

    it('breadcrumbs, last updated as <time>, a table of contents to the heading anchors, the body as rendered', () => {
      const html = article();
      expect(html).toContain('<li><a href="/collections/billing">Billing</a></li><li aria-current="page">Download an invoice</li>');
      expect(html).toContain('<p class="meta">Last updated <time datetime="2026-11-20T10:30:00.000Z">November 20, 2026</time></p>');
      expect(html).toContain('<nav id="toc" class="toc" aria-label="Contents"><h2>Contents</h2><ol><li class="level-2"><a href="#older-invoices">Older invoices</a></li></ol></nav>');
      expect(html).toContain('<div class="article-body"><p>Every invoice is in <strong>Billing</strong>.</p><h2 id="older-invoices">Older invoices</h2>');
    });

    it('previous and next in the collection, related articles', () => {
      const html = render(sampleArticlePage({ next: sampleArticleLink({ slug: 'next-one', title: 'Next one' }) }), (c, p) => renderPage.article(c, p, { feedbackSent: false }));
      expect(html).toContain('<a class="previous" rel="prev" href="/articles/change-card"><small>Previous</small><span>Change your card</span></a>');
      expect(html).toContain('<a class="next" rel="next" href="/articles/next-one"><small>Next</small><span>Next one</span></a>');
      expect(html).toContain('<section id="related"><h2>Related articles</h2>');
      expect(render(sampleArticlePage({ previous: null, next: null, related: [] }), (c, p) => renderPage.article(c, p, { feedbackSent: false }))).not.toMatch(/class="pager"|id="related"/);
    });

    it('the feedback form: posts itself to /articles/{slug}/feedback, the script to the public endpoint; labelled fields, yes and no', () => {
      const html = article();
      expect(html).toMatch(/<form id="feedback-form" method="post" action="\/articles\/download-an-invoice\/feedback" data-endpoint="\/v1\/public\/articles\/art_1\/feedback" /);
      expect(html).toContain('<input type="hidden" name="article" value="art_1"/>');
      expect(html).toContain('<label for="feedback-comment">Comment <span class="hint">(optional)</span></label><textarea id="feedback-comment" name="feedback"');
      expect(html).toContain('<label for="feedback-email">Email <span class="hint">(optional)</span></label><input id="feedback-email" type="email" name="email"');
      expect(html).toContain('<button type="submit" name="type" value="positive">Yes, it helped</button>');
      expect(html).toContain('<button type="submit" name="type" value="negative" class="secondary">No, it did not</button>');
      expect(html).toContain('data-empty-comment="(no comment)"');
    });

    it('after a feedback post: the thank-you instead of the form', () => {
      const html = article(sampleArticlePage(), true);
      expect(html).toContain('<section id="feedback" class="feedback"><h2>Was this article helpful?</h2><p id="feedback-thanks" class="thanks" role="status">Thank you for your feedback!</p></section>');
      expect(html).not.toContain('feedback-form');
    });

    it('in French with a translation: French URLs, alternates for the languages it exists in', () => {
      const page = sampleArticlePage({ locale: sampleLocale('fr'), article: { title: 'Télécharger une facture', language: 'fr' }, availableLanguages: ['en', 'fr'] });
      const html = article(page);
      expect(html).toContain('<html lang="fr" dir="ltr">');
      expect(html).toContain('<article id="article"><h1>Télécharger une facture</h1>');
      expect(html).toContain('<link rel="canonical" href="https://help.example.com/fr/articles/download-an-invoice"/>');
      expect(tags(html, 'link').filter((link) => link.includes('hreflang'))).toEqual([
        '<link rel="alternate" hreflang="en" href="https://help.example.com/articles/download-an-invoice"/>',
        '<link rel="alternate" hreflang="fr" href="https://help.example.com/fr/articles/download-an-invoice"/>',
        '<link rel="alternate" hreflang="x-default" href="https://help.example.com/articles/download-an-invoice"/>',
      ]);
      expect(html).toContain('action="/fr/articles/download-an-invoice/feedback"');
      expect(html).toContain('Dernière mise à jour <time datetime="2026-11-20T10:30:00.000Z">20 novembre 2026</time>');
      expect(html).not.toContain('class="notice"');
    });

    it('in French without a translation: the English text under lang="en", a visible notice, canonical to the English page', () => {
      const page = sampleArticlePage({ locale: sampleLocale('fr'), article: { fallback: true, language: 'en' }, availableLanguages: ['en'] });
      const html = article(page);
      expect(html).toContain('<html lang="fr" dir="ltr">');
      expect(html).toContain('<p class="notice" role="note">Cet article n’est pas encore disponible en Français\u202f; il est affiché en English.</p>');
      expect(html).toContain('<article id="article" lang="en"><h1>Download an invoice</h1><p class="meta" lang="fr">Dernière mise à jour');
      expect(html).toContain('<nav id="toc" class="toc" aria-label="Sommaire" lang="fr"><h2>Sommaire</h2><ol><li class="level-2" lang="en">');
      expect(html).toContain('<link rel="canonical" href="https://help.example.com/articles/download-an-invoice"/>');
      expect(html).not.toContain('hreflang="fr" href="https://help.example.com/fr/articles');
      // The switcher still offers every language.
      expect(html).toContain('<a href="/fr/articles/download-an-invoice" hreflang="fr" lang="fr" aria-current="true">Français</a>');
    });

    it('without ogImage: a summary card, the logo as the image when there is one', () => {
      const html = article(sampleArticlePage({ branding: sampleBranding({ logoUrl: 'https://cdn.example.com/logo.png' }), article: { ogImage: null } }));
      expect(html).toContain('<meta name="twitter:card" content="summary"/>');
      expect(html).toContain('<meta property="og:image" content="https://cdn.example.com/logo.png"/>');
      expect(jsonLd(html)[0]!['publisher']).toEqual({ '@type': 'Organization', name: 'Acme Help', logo: { '@type': 'ImageObject', url: 'https://cdn.example.com/logo.png' } });
    });
  });

  describe('search', () => {
    it('the query kept in the box, highlighted snippets, the next page, not for indexing', () => {
      const html = render(sampleSearchPage(), renderPage.search);
      expect(html).toContain('<input type="search" name="q" value="invoice"');
      expect(html).toContain('<meta name="robots" content="noindex"/>');
      expect(html).toContain('<h1>Results for “invoice”</h1>');
      expect(html).toContain('<li><a href="/articles/download-an-invoice">Download an invoice</a><p>Every <mark>invoice</mark> is a PDF.</p></li>');
      expect(html).toContain('<a rel="next" href="/search?q=invoice&amp;page=2">Next page</a>');
      expect(html).not.toContain('rel="prev"');
    });

    it('a later page links back', () => {
      const html = render(sampleSearchPage({ page: 3, hasNextPage: false }), renderPage.search);
      expect(html).toContain('<a rel="prev" href="/search?q=invoice&amp;page=2">Previous page</a>');
      expect(html).toContain('<span aria-current="page">Page 3</span>');
    });

    it('no results: says so, with help and a way to browse', () => {
      const html = render(sampleSearchPage({ query: 'zebra', results: [], hasNextPage: false }), renderPage.search);
      expect(html).toContain('No articles match “zebra”.');
      expect(html).toContain('Check the spelling');
      expect(html).toContain('<a href="/">Browse all topics</a>');
      expect(html).not.toContain('<mark>');
    });

    it('an empty query asks for words', () => {
      expect(render(sampleSearchPage({ query: '', results: [], hasNextPage: false }), renderPage.search)).toContain('Type a few words in the search box');
    });
  });

  describe('error pages', () => {
    it.each([
      ['not_found', 'We couldn’t find that page'],
      ['rate_limited', 'Please wait 42 seconds'],
      ['invalid', 'We could not use what was sent'],
      ['error', 'Please try again in a moment'],
    ] as const)('%s: says what happened, not for indexing, a way home', (kind, text) => {
      const html = render(sampleHome(), (c) => renderPage.error(c, kind, { retryAfterSeconds: 42, back: '/articles/x#feedback' }));
      expect(html).toContain(text);
      expect(html).toContain('<meta name="robots" content="noindex"/>');
      expect(html).toContain('<a href="/">Go to the home page</a>');
      expect(html).toContain('<a href="/articles/x#feedback">Back to the article</a>');
    });
  });

  describe('hostile text is escaped everywhere (titles, names, descriptions, keywords, queries, links)', () => {
    const HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(1)>&amp;\u2028';
    const hostileLink = sampleArticleLink({ title: HOSTILE, summary: HOSTILE, slug: 'a"b<c' });
    const pages: Array<[string, () => string]> = [
      ['home', () => render(sampleHome({ branding: sampleBranding({ name: HOSTILE, footerLinks: [{ label: HOSTILE, url: 'https://x.example/"><script>' }] }), sections: [{ section: sampleSection({ name: HOSTILE }), collections: [{ ...sampleCollection({ title: HOSTILE, description: HOSTILE, shortId: '"><x' }), children: [] }] }], recentArticles: [hostileLink] }), renderPage.home)],
      ['collection', () => render(sampleCollectionPage({ collection: sampleCollection({ title: HOSTILE, description: HOSTILE }), breadcrumbs: [{ kind: 'section', section: sampleSection({ name: HOSTILE }) }], articles: [hostileLink] }), renderPage.collection)],
      [
        'article',
        () =>
          article(
            sampleArticlePage({
              branding: sampleBranding({ name: HOSTILE }),
              article: { title: HOSTILE, summary: HOSTILE, metaDescription: HOSTILE, keywords: HOSTILE, ogImage: 'https://cdn.example.com/a"><script>.png', slug: '"><script>' },
              toc: [{ id: '"><script>', text: HOSTILE, level: 2 }],
              breadcrumbs: [{ kind: 'collection', collection: sampleCollection({ title: HOSTILE }) }],
              related: [hostileLink],
              previous: hostileLink,
              next: hostileLink,
            }),
          ),
      ],
      ['search', () => render(sampleSearchPage({ query: HOSTILE, results: [{ ...hostileLink, snippet: 'safe <mark>text</mark>' }] }), renderPage.search)],
    ];

    it.each(pages)('%s', (_name, draw) => {
      const html = draw();
      expect(html).not.toContain('<script>alert');
      expect(html).not.toContain('<img src=x');
      expect(html).not.toMatch(/"><(script|img|x)/);
      expect(html).toContain('&lt;script>alert(1)&lt;/script>');
      // JSON-LD: no raw < at all, and it reads back as the original text.
      for (const block of html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)) {
        expect(block[1]).not.toMatch(/[<>&\u2028]/);
        expect(JSON.stringify(JSON.parse(block[1]!))).toContain(JSON.stringify(HOSTILE).slice(1, -1).replace(/\u2028/g, '\u2028'));
      }
    });
  });
});
