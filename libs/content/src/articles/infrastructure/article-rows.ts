import type { ArticleContent, ArticleProps, ArticleRevision } from '../domain/article.js';

// Columns and row mapping shared by the article adapters (the aggregate and the read model read the same rows;
// revisions and translations store their bodies alike).

/** The article's own fields on alias `a`, named as ArticleProps: a row is the props. */
export const ARTICLE_COLUMNS = `a.id, a.helpdesk_id AS "helpdeskId", a.section_id AS "sectionId", a.collection_id AS "collectionId",
  a.status, a.status_before_trash AS "statusBeforeTrash", a.slug, a.custom_slug AS "customSlug", a.keywords,
  a.meta_description AS "metaDescription", a.og_image AS "ogImage", a.latest_version AS "latestVersion",
  a.current_revision_id AS "currentRevisionId", a.live_revision_id AS "liveRevisionId", a.published_at AS "publishedAt",
  a.created_at AS "createdAt", a.updated_at AS "updatedAt"`;

export type ArticleRow = ArticleProps;

/** A revision on alias `r`. */
export const REVISION_COLUMNS = `r.id, r.article_id AS "articleId", r.version, r.title, r.content_json AS "contentJson",
  r.content_markdown AS "contentMarkdown", r.content_html AS "contentHtml", r.created_by_key_id AS "createdByKeyId",
  r.created_at AS "createdAt", r.went_live_at AS "wentLiveAt"`;

/** A body's three stored renderings (content_json, content_markdown, content_html), as the column lists name them. */
export interface ContentRow {
  contentJson: Record<string, unknown>;
  contentMarkdown: string;
  contentHtml: string;
}

export function toContent(row: ContentRow): ArticleContent {
  return { json: row.contentJson, markdown: row.contentMarkdown, html: row.contentHtml };
}

export interface RevisionRow extends ContentRow {
  id: string;
  articleId: string;
  version: number;
  title: string;
  createdByKeyId: string | null;
  createdAt: Date;
  wentLiveAt: Date | null;
}

export function toRevision(row: RevisionRow): ArticleRevision {
  return {
    id: row.id,
    articleId: row.articleId,
    version: row.version,
    title: row.title,
    content: toContent(row),
    createdByKeyId: row.createdByKeyId,
    createdAt: row.createdAt,
    wentLiveAt: row.wentLiveAt,
  };
}
