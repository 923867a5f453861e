/**
 * What the public help center's pages show: the read model the help-center use cases return and the page
 * adapter (apps/api/src/help-center) renders. Everything here is live content only (never a draft, never a
 * trashed article), in one language, with the language it is actually shown in.
 */

/** The language a page is requested in and what the help center offers. */
export interface SiteLocale {
  /** The language the page was asked for (a path prefix such as /fr, or the default). */
  readonly requested: string;
  readonly defaultLanguage: string;
  /** Enabled languages, default first. */
  readonly languages: readonly string[];
}

export interface FooterLink {
  readonly label: string;
  /** http(s) or mailto. */
  readonly url: string;
}

/** The helpdesk's branding, shown on every page. */
export interface SiteBranding {
  readonly name: string;
  /** http(s) URL or null. */
  readonly logoUrl: string | null;
  /** `#rrggbb` or null (the pages' default accent). */
  readonly accentColor: string | null;
  readonly footerLinks: readonly FooterLink[];
}

/** A text shown in `language`; `fallback` when the requested language has no translation of it. */
export interface Localized {
  readonly language: string;
  readonly fallback: boolean;
}

export interface ArticleLink extends Localized {
  readonly id: string;
  readonly slug: string;
  readonly title: string;
  /** The live revision's meta description, or the first words of its text; may be empty. */
  readonly summary: string;
  readonly updatedAt: Date;
  readonly publishedAt: Date;
}

export interface CollectionLink extends Localized {
  readonly id: string;
  readonly shortId: string;
  readonly title: string;
  readonly description: string | null;
  /** Live articles in this collection and its descendants. */
  readonly articleCount: number;
}

export interface CollectionNode extends CollectionLink {
  readonly children: readonly CollectionNode[];
}

export interface SectionLink extends Localized {
  readonly id: string;
  readonly name: string;
}

/** From the home page down to the page's parent: a section, then collections from the root. */
export type Breadcrumb = { readonly kind: 'section'; readonly section: SectionLink } | { readonly kind: 'collection'; readonly collection: CollectionLink };

interface PageBase {
  readonly branding: SiteBranding;
  readonly locale: SiteLocale;
  /** The newest change among everything the page shows (for Last-Modified). */
  readonly lastModified: Date;
}

export interface HomePage extends PageBase {
  /** Sections in order, each with its top-level collections (nested, in order); empty sections and collections left out. */
  readonly sections: ReadonlyArray<{ readonly section: SectionLink; readonly collections: readonly CollectionNode[] }>;
  /** Recently published or updated live articles. */
  readonly recentArticles: readonly ArticleLink[];
}

export interface SectionPage extends PageBase {
  readonly section: SectionLink;
  readonly collections: readonly CollectionNode[];
  /** Live articles placed in the section outside any collection, in order (oldest first). */
  readonly articles: readonly ArticleLink[];
}

export interface CollectionPage extends PageBase {
  readonly collection: CollectionLink;
  readonly breadcrumbs: readonly Breadcrumb[];
  readonly subcollections: readonly CollectionLink[];
  readonly articles: readonly ArticleLink[];
}

/**
 * Element IDs the pages may give their own elements around an article's `html`: no heading anchor takes one (a
 * heading "Feedback" gets `feedback-2`), so `#feedback` always reaches the page's feedback form.
 */
export const RESERVED_ELEMENT_IDS: readonly string[] = [
  'top',
  'main',
  'content',
  'header',
  'footer',
  'nav',
  'breadcrumbs',
  'search',
  'search-results',
  'language',
  'toc',
  'article',
  'related',
  'feedback',
  'feedback-form',
  'feedback-comment',
  'feedback-email',
  'feedback-thanks',
];

export interface TocEntry {
  /** The heading's anchor (its `id` in `html`): stable for the same heading text. */
  readonly id: string;
  readonly text: string;
  /** 2 or 3. */
  readonly level: number;
}

export interface ArticlePage extends PageBase {
  readonly article: ArticleLink & {
    /** Rendered by the content format's HTML renderer (safe by construction), headings carrying `id`s. */
    readonly html: string;
    readonly metaDescription: string | null;
    readonly keywords: string | null;
    readonly ogImage: string | null;
  };
  readonly toc: readonly TocEntry[];
  readonly breadcrumbs: readonly Breadcrumb[];
  readonly related: readonly ArticleLink[];
  readonly previous: ArticleLink | null;
  readonly next: ArticleLink | null;
  /** Languages this article can be read in (its default language and its published translations). */
  readonly availableLanguages: readonly string[];
}

/** An article page lookup: the page, a permanent redirect (the slug changed), or nothing live under that slug. */
export type ArticlePageResult =
  | { readonly kind: 'page'; readonly page: ArticlePage }
  | { readonly kind: 'moved'; readonly slug: string }
  | { readonly kind: 'not_found'; readonly branding: SiteBranding; readonly locale: SiteLocale };

export interface SearchPage extends PageBase {
  readonly query: string;
  readonly results: ReadonlyArray<ArticleLink & { /** HTML: text escaped, matches in <mark>. */ readonly snippet: string }>;
  /** 1-based. */
  readonly page: number;
  readonly hasNextPage: boolean;
}

export interface SitemapEntry {
  readonly slug: string;
  readonly lastModified: Date;
  /** Languages the article is live in (default first). */
  readonly languages: readonly string[];
}

export interface Sitemap {
  readonly locale: SiteLocale;
  readonly articles: readonly SitemapEntry[];
  readonly collections: ReadonlyArray<{ readonly shortId: string; readonly lastModified: Date }>;
}

export interface Feed extends PageBase {
  /** Most recently published first. */
  readonly articles: readonly ArticleLink[];
}
