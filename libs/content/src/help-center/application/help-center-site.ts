import { NotFoundError } from '#core';
import type { ArticleLinkRow, SiteRow } from './help-center-read.repository.js';
import { summaryOf } from './help-center-summaries.js';
import type { ArticleLink, Breadcrumb, CollectionLink, SectionLink, SiteBranding, SiteLocale } from './help-center-views.js';

/** What every page of one request shares: the branding, the languages, the site's last change. */
export interface SiteContext {
  readonly branding: SiteBranding;
  readonly locale: SiteLocale;
  /** The language translations are read in: null for the default language (its text is the content itself). */
  readonly translation: string | null;
  readonly lastModified: Date;
  readonly site: SiteRow;
}

/** The helpdesk and the asked language (omitted: the default one); a language that is not enabled is not found. */
export function siteContext(site: SiteRow | null, language: string | undefined): SiteContext {
  if (!site) throw new Error('The helpdesk has not been created; start-up should have created it');
  const requested = language ?? site.defaultLanguage;
  if (!site.languages.includes(requested)) throw new NotFoundError('Language', requested);
  return {
    branding: {
      name: site.name,
      logoUrl: site.logoUrl,
      accentColor: site.accentColor,
      footerLinks: site.footerLinks.map((link) => ({ label: link.label, url: link.url })),
    },
    locale: { requested, defaultLanguage: site.defaultLanguage, languages: [site.defaultLanguage, ...site.languages.filter((l) => l !== site.defaultLanguage)] },
    translation: requested === site.defaultLanguage ? null : requested,
    lastModified: site.changedAt,
    site,
  };
}

export function articleLink(row: ArticleLinkRow, context: SiteContext): ArticleLink {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    summary: summaryOf(row.description, row.textStart),
    language: row.language,
    fallback: row.language !== context.locale.requested,
    updatedAt: row.updatedAt,
    publishedAt: row.publishedAt,
  };
}

export function sectionLink(row: { id: string; name: string; language: string }, context: SiteContext): SectionLink {
  return { id: row.id, name: row.name, language: row.language, fallback: row.language !== context.locale.requested };
}

export function collectionLink(
  row: { id: string; shortId: string; title: string; description: string | null; language: string },
  articleCount: number,
  context: SiteContext,
): CollectionLink {
  return {
    id: row.id,
    shortId: row.shortId,
    title: row.title,
    description: row.description,
    articleCount,
    language: row.language,
    fallback: row.language !== context.locale.requested,
  };
}

export function sectionCrumb(section: SectionLink): Breadcrumb {
  return { kind: 'section', section };
}

export function collectionCrumb(collection: CollectionLink): Breadcrumb {
  return { kind: 'collection', collection };
}

/** The languages an article can be read in: the default one, then its published translations into enabled languages, in the helpdesk's order. */
export function articleLanguages(translations: readonly string[], context: SiteContext): string[] {
  return context.locale.languages.filter((language) => language === context.locale.defaultLanguage || translations.includes(language));
}
