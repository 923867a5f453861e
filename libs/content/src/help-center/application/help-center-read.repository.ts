import type { FooterLink } from './help-center-views.js';

// Rows of the public help center's read model. Text columns are already in the language they are shown in
// (`language`): the published translation into the requested language, else the default language's text.

/** The helpdesk as every page needs it, and when anything a page could show last changed. */
export interface SiteRow {
  readonly helpdeskId: string;
  readonly name: string;
  readonly logoUrl: string | null;
  readonly accentColor: string | null;
  readonly footerLinks: readonly FooterLink[];
  readonly defaultLanguage: string;
  /** Enabled languages, default first. */
  readonly languages: readonly string[];
  /**
   * The newest change of the helpdesk, any article (whatever its status: unpublishing and trashing count), any
   * published translation, section or collection: never older than what a page shows, never going back.
   */
  readonly changedAt: Date;
}

export interface SectionRow {
  readonly id: string;
  readonly name: string;
  readonly language: string;
}

export interface CollectionRow {
  readonly id: string;
  readonly shortId: string;
  readonly sectionId: string | null;
  readonly parentId: string | null;
  readonly title: string;
  readonly description: string | null;
  readonly language: string;
}

/** Live articles per place: a collection, or (collectionId null) a section outside any collection. */
export interface LiveCountRow {
  readonly sectionId: string;
  readonly collectionId: string | null;
  readonly count: number;
  readonly lastPublishedAt: Date;
}

/** Sections in position order and collections in creation order, in one language, with where live articles are. */
export interface StructureRows {
  readonly sections: readonly SectionRow[];
  readonly collections: readonly CollectionRow[];
  readonly counts: readonly LiveCountRow[];
}

/** A live article as lists show it. */
export interface ArticleLinkRow {
  readonly id: string;
  readonly slug: string;
  readonly title: string;
  readonly language: string;
  /** The meta description when the text is in the default language (it is written in that language), else null. */
  readonly description: string | null;
  /** The first few hundred characters of the text's Markdown (the use case makes the summary of them). */
  readonly textStart: string;
  readonly updatedAt: Date;
  readonly publishedAt: Date;
}

/** One collection of a breadcrumb trail, root first. */
export interface CrumbCollectionRow extends CollectionRow {
  /** Live articles in it and its descendants. */
  readonly articleCount: number;
}

/** Where the text of a live article's page comes from (immutable for one key: a revision, a translation's publication). */
export type BodySource = { readonly revisionId: string } | { readonly translationId: string; readonly publishedAt: Date };

export interface BodyDocument {
  readonly json: Record<string, unknown>;
  /** For a translation: when what `json` holds was published. */
  readonly publishedAt: Date | null;
}

/** Everything the article page shows, read at once. */
export interface LiveArticleRow extends ArticleLinkRow {
  readonly sectionId: string;
  readonly collectionId: string | null;
  readonly metaDescription: string | null;
  readonly keywords: string | null;
  readonly ogImage: string | null;
  readonly body: BodySource;
  /** Locales of its published translations. */
  readonly translations: readonly string[];
  readonly section: SectionRow;
  /** The collection it is in and its ancestors, root first; empty outside collections. */
  readonly collections: readonly CrumbCollectionRow[];
  /** Up to 5 others, the collection's newest first, then the section's. */
  readonly related: readonly ArticleLinkRow[];
  readonly previous: ArticleLinkRow | null;
  readonly next: ArticleLinkRow | null;
}

export type ArticleLookup = { readonly kind: 'live'; readonly article: LiveArticleRow } | { readonly kind: 'moved'; readonly slug: string } | null;

export interface SearchHitRow extends ArticleLinkRow {
  /** Plain text with matched terms between \u0001 and \u0002. */
  readonly snippet: string;
}

export interface SitemapRow {
  readonly slug: string;
  readonly lastModified: Date;
  /** Locales of its published translations. */
  readonly translations: readonly string[];
}

/**
 * Port: the public help center's reads. Live content only: published, not trashed articles, their live revision or
 * the published translation into the asked language. `language` is the requested one; texts without a
 * published translation into it come in the default language. Orders: sections by position, collections and the
 * articles of a collection by creation (oldest first).
 */
export abstract class HelpCenterReadRepository {
  abstract site(): Promise<SiteRow | null>;
  abstract structure(language: string | null): Promise<StructureRows>;
  /** The newest published live articles. */
  abstract recentArticles(language: string | null, limit: number): Promise<ArticleLinkRow[]>;
  /** Live articles of the collection with this short ID, in order. */
  abstract collectionArticles(shortId: string, language: string | null): Promise<ArticleLinkRow[]>;
  /** Live articles placed in the section outside any collection, in order. */
  abstract sectionArticles(sectionId: string, language: string | null): Promise<ArticleLinkRow[]>;
  /** The live article under `slug`, or the current slug of the live article that was under it before. */
  abstract findArticle(slug: string, language: string | null): Promise<ArticleLookup>;
  /** The stored ProseMirror document of a body source (a translation's: as published now, with when). */
  abstract bodyDocument(source: BodySource): Promise<BodyDocument | null>;
  /** Full-text search over live articles (language null: the default language's text) or a language's published translations, ranked. */
  abstract search(query: string, language: string | null, offset: number, limit: number): Promise<SearchHitRow[]>;
  abstract sitemapArticles(): Promise<SitemapRow[]>;
  /** The newest published live articles in `language` (null: the default one; else only those translated into it). */
  abstract feed(language: string | null, limit: number): Promise<ArticleLinkRow[]>;
}
