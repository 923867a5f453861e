import type { ArticleRecord, ContentFormat } from '../../articles/application/article-read.repository.js';
import type { Collection, CollectionTranslation } from '../../collections/domain/collection.js';
import type { Section, SectionTranslation } from '../../sections/domain/section.js';

// The JSON shape of each resource as the API returns it. The HTTP layer and the events (whose `data` is the
// resource as the API returns it) both use these, so a webhook payload and a GET never disagree.

export interface ArticleContentFields {
  contentHtml?: string;
  contentMarkdown?: string;
  contentJson?: Record<string, unknown> | null;
}

export interface ArticleView extends ArticleContentFields {
  id: string;
  title: string;
  slug: string | null;
  url: string | null;
  sectionId: string | null;
  collectionId: string | null;
  status: string | null;
  publishedAt: string | null;
  keywords: string | null;
  metaDescription: string | null;
  ogImage: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The one content field a format names (contentHtml, contentMarkdown or contentJson), holding `value`. */
export function contentField(format: ContentFormat, value: string | Record<string, unknown> | null): ArticleContentFields {
  if (format === 'json') return { contentJson: (value as Record<string, unknown> | null) ?? null };
  return format === 'markdown' ? { contentMarkdown: (value as string | null) ?? '' } : { contentHtml: (value as string | null) ?? '' };
}

export function articleView(record: ArticleRecord, format: ContentFormat, publicUrl: string): ArticleView {
  const p = record.props;
  return {
    id: p.id,
    title: record.title,
    slug: p.slug,
    url: p.publishedAt ? `${publicUrl}/articles/${p.slug}` : null,
    sectionId: p.sectionId,
    collectionId: p.collectionId,
    status: p.status,
    publishedAt: p.publishedAt?.toISOString() ?? null,
    keywords: p.keywords,
    metaDescription: p.metaDescription,
    ogImage: p.ogImage,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    ...contentField(format, record.content),
  };
}

export function collectionView(collection: Collection) {
  const c = collection.snapshot();
  return {
    id: c.id,
    helpdeskId: c.helpdeskId,
    sectionId: c.sectionId,
    parentCollectionId: c.parentCollectionId,
    title: c.title,
    subtitle: c.subtitle,
    shortId: c.shortId,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    translations: c.translations.map(collectionTranslationView),
  };
}

export function collectionTranslationView(t: CollectionTranslation) {
  return {
    id: t.id,
    collectionId: t.collectionId,
    language: t.language,
    title: t.title,
    subtitle: t.subtitle,
    status: t.status,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

export function sectionView(section: Section) {
  const s = section.snapshot();
  return {
    id: s.id,
    helpdeskId: s.helpdeskId,
    name: s.name,
    isDefault: s.isDefault,
    position: s.position,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    translations: s.translations.map(sectionTranslationView),
  };
}

export function sectionTranslationView(t: SectionTranslation) {
  return {
    id: t.id,
    sectionId: t.sectionId,
    language: t.language,
    name: t.name,
    status: t.status,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}
