import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#core';
import {
  type ArticleLinkRow,
  type ArticleLookup,
  type BodyDocument,
  type BodySource,
  type CollectionRow,
  type CrumbCollectionRow,
  HelpCenterReadRepository,
  type LiveCountRow,
  type SearchHitRow,
  type SectionRow,
  type SiteRow,
  type SitemapRow,
  type StructureRows,
} from '../application/help-center-read.repository.js';

/**
 * The language of a read, as CTE `lang`: the helpdesk, its default language and `tl`, the language translations are
 * looked up in (null when the default language is asked for: its text is the content itself).
 */
const langCte = (param: string) => `lang AS (SELECT h.id AS helpdesk_id, h.default_language, nullif(${param}::text, h.default_language) AS tl FROM helpdesks h LIMIT 1)`;

/** Markdown read for a summary: its start is enough (the use case keeps about 200 characters of it). */
const SUMMARY_SOURCE_CHARS = 1200;

/**
 * A live article as lists show it, on article alias `a`, its live revision `r` and its published translation into
 * the asked language `t` (absent: the default language's text). Needs `lang` in the FROM list.
 */
function linkColumns(a = 'a', r = 'r', t = 't'): string {
  return `${a}.id, ${a}.slug, coalesce(${t}.published_title, ${r}.title) AS title, coalesce(${t}.locale, lang.default_language) AS language,
    CASE WHEN ${t}.id IS NULL
      THEN coalesce(nullif(btrim(${a}.meta_description), ''), help_plain_text(left(${r}.content_markdown, ${SUMMARY_SOURCE_CHARS})))
      ELSE help_plain_text(left(${t}.published_markdown, ${SUMMARY_SOURCE_CHARS})) END AS summary,
    coalesce(${t}.published_at, ${a}.published_at) AS "updatedAt", ${a}.published_at AS "publishedAt"`;
}

function linkJoins(a = 'a', r = 'r', t = 't'): string {
  return `JOIN article_revisions ${r} ON ${r}.id = ${a}.live_revision_id
    LEFT JOIN article_translations ${t} ON ${t}.article_id = ${a}.id AND ${t}.locale = lang.tl AND ${t}.published_at IS NOT NULL`;
}

/** A section's name in the asked language, on `s` (translation `st`). */
const SECTION_COLUMNS = `s.id, coalesce(st.name, s.name) AS name, coalesce(st.language, lang.default_language) AS language`;
const SECTION_TRANSLATION_JOIN = `LEFT JOIN section_translations st ON st.section_id = s.id AND st.language = lang.tl AND st.status = 'published'`;

/** A collection's title and subtitle in the asked language, on `c` (translation `ct`). */
const COLLECTION_COLUMNS = `c.id, c.short_id AS "shortId", c.section_id AS "sectionId", c.parent_collection_id AS "parentId",
  coalesce(ct.title, c.title) AS title, CASE WHEN ct.id IS NULL THEN c.subtitle ELSE ct.subtitle END AS description,
  coalesce(ct.language, lang.default_language) AS language`;
const COLLECTION_TRANSLATION_JOIN = `LEFT JOIN collection_translations ct ON ct.collection_id = c.id AND ct.language = lang.tl AND ct.status = 'published'`;

/** The other live articles of the page's article `art`, as JSON objects: one of the article page's parts. */
const otherLink = (where: string, order: string, limit: number) =>
  `SELECT ${linkColumns('o', 'orv', 'ot')} FROM articles o CROSS JOIN lang ${linkJoins('o', 'orv', 'ot')}
   WHERE o.status = 'published' AND o.id <> art.id AND ${where} ORDER BY ${order} LIMIT ${limit}`;

/**
 * The article page in one statement: the live article under the slug (or, through the slug history, the one that
 * was), its text in the asked language, its section and collection trail (with live counts), related articles and
 * its neighbours in its collection. One snapshot: a slug changing meanwhile shows either the old page or the move.
 */
const ARTICLE_PAGE_SQL = `
WITH RECURSIVE
  ${langCte('$2')},
  hit AS (
    (SELECT a.id, false AS moved FROM articles a, lang WHERE a.helpdesk_id = lang.helpdesk_id AND a.slug = $1 AND a.status = 'published')
    UNION ALL
    (SELECT s.article_id, true FROM article_slug_history s, lang
     WHERE s.helpdesk_id = lang.helpdesk_id AND s.slug = $1
       AND NOT EXISTS (SELECT 1 FROM articles x WHERE x.helpdesk_id = lang.helpdesk_id AND x.slug = $1))
    LIMIT 1),
  art AS (
    SELECT hit.moved, a.section_id AS "sectionId", a.collection_id AS "collectionId", a.created_at AS "createdAt",
      a.meta_description AS "metaDescription", a.keywords, a.og_image AS "ogImage", a.live_revision_id AS "liveRevisionId",
      t.id AS "translationId", t.published_at AS "translationPublishedAt", ${linkColumns()}
    FROM hit JOIN articles a ON a.id = hit.id AND a.status = 'published' CROSS JOIN lang ${linkJoins()}),
  up(id, parent_id, depth) AS (
    SELECT c.id, c.parent_collection_id, 0 FROM collections c JOIN art ON c.id = art."collectionId" WHERE NOT art.moved
    UNION ALL
    SELECT c.id, c.parent_collection_id, up.depth + 1 FROM collections c JOIN up ON c.id = up.parent_id WHERE up.depth < 100),
  down(id, root) AS (
    SELECT id, id FROM up
    UNION ALL
    SELECT c.id, down.root FROM collections c JOIN down ON c.parent_collection_id = down.id)
SELECT art.*,
  ARRAY(SELECT l.locale FROM article_translations l WHERE l.article_id = art.id AND l.published_at IS NOT NULL ORDER BY l.locale) AS translations,
  (SELECT row_to_json(x) FROM (SELECT ${SECTION_COLUMNS} FROM sections s ${SECTION_TRANSLATION_JOIN} WHERE s.id = art."sectionId") x) AS section,
  (SELECT coalesce(json_agg(x ORDER BY x.depth DESC), '[]'::json) FROM (
     SELECT up.depth, ${COLLECTION_COLUMNS},
       (SELECT count(*) FROM articles n WHERE n.status = 'published' AND n.collection_id IN (SELECT d.id FROM down d WHERE d.root = up.id))::int AS "articleCount"
     FROM up JOIN collections c ON c.id = up.id ${COLLECTION_TRANSLATION_JOIN}) x) AS collections,
  (SELECT coalesce(json_agg(x ORDER BY x.k, x."publishedAt" DESC, x.id DESC), '[]'::json) FROM (
     (SELECT 0 AS k, y.* FROM (${otherLink('o.collection_id = art."collectionId"', 'o.published_at DESC, o.id DESC', 5)}) y)
     UNION ALL
     (SELECT 1 AS k, y.* FROM (${otherLink(
       'o.section_id = art."sectionId" AND (art."collectionId" IS NULL OR o.collection_id IS DISTINCT FROM art."collectionId")',
       'o.published_at DESC, o.id DESC',
       5,
     )}) y)) x) AS related,
  (SELECT row_to_json(x) FROM (${otherLink('o.collection_id = art."collectionId" AND (o.created_at, o.id) < (art."createdAt", art.id)', 'o.created_at DESC, o.id DESC', 1)}) x) AS previous,
  (SELECT row_to_json(x) FROM (${otherLink('o.collection_id = art."collectionId" AND (o.created_at, o.id) > (art."createdAt", art.id)', 'o.created_at, o.id', 1)}) x) AS next
FROM art CROSS JOIN lang`;

interface ArticlePageRow extends ArticleLinkRow {
  moved: boolean;
  sectionId: string;
  collectionId: string | null;
  createdAt: Date;
  metaDescription: string | null;
  keywords: string | null;
  ogImage: string | null;
  liveRevisionId: string;
  translationId: string | null;
  translationPublishedAt: Date | null;
  translations: string[];
  section: SectionRow;
  collections: Array<CrumbCollectionRow & { depth?: number }>;
  related: Array<JsonLink & { k?: number }>;
  previous: JsonLink | null;
  next: JsonLink | null;
}

/** A link as JSON gives it back: its times as text. */
type JsonLink = Omit<ArticleLinkRow, 'updatedAt' | 'publishedAt'> & { updatedAt: string; publishedAt: string };

function fromJson(link: JsonLink): ArticleLinkRow {
  return {
    id: link.id,
    slug: link.slug,
    title: link.title,
    language: link.language,
    summary: link.summary ?? '',
    updatedAt: new Date(link.updatedAt),
    publishedAt: new Date(link.publishedAt),
  };
}

function crumb(row: CrumbCollectionRow): CrumbCollectionRow {
  return {
    id: row.id,
    shortId: row.shortId,
    sectionId: row.sectionId,
    parentId: row.parentId,
    title: row.title,
    description: row.description,
    language: row.language,
    articleCount: row.articleCount,
  };
}

/** The public help center's reads in PostgreSQL, plain SQL, outside any transaction (each one statement, or independent ones at once). */
@Injectable()
export class SqlHelpCenterReadRepository extends HelpCenterReadRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async site(): Promise<SiteRow | null> {
    const [row] = await this.tx.query<SiteRow>(
      `SELECT h.id AS "helpdeskId", h.name, h.logo_url AS "logoUrl", h.accent_color AS "accentColor", h.footer_links AS "footerLinks",
         h.default_language AS "defaultLanguage", h.languages,
         greatest(h.updated_at, (SELECT max(updated_at) FROM articles), (SELECT max(published_at) FROM article_translations WHERE published_at IS NOT NULL),
           (SELECT max(updated_at) FROM sections), (SELECT max(updated_at) FROM section_translations),
           (SELECT max(updated_at) FROM collections), (SELECT max(updated_at) FROM collection_translations)) AS "changedAt"
       FROM helpdesks h LIMIT 1`,
    );
    return row ?? null;
  }

  async structure(language: string | null): Promise<StructureRows> {
    const [sections, collections, counts] = await Promise.all([
      this.tx.query<SectionRow>(
        `WITH ${langCte('$1')}
         SELECT ${SECTION_COLUMNS} FROM sections s CROSS JOIN lang ${SECTION_TRANSLATION_JOIN}
         WHERE s.helpdesk_id = lang.helpdesk_id ORDER BY s.position, s.id`,
        [language],
      ),
      this.tx.query<CollectionRow>(
        `WITH ${langCte('$1')}
         SELECT ${COLLECTION_COLUMNS} FROM collections c CROSS JOIN lang ${COLLECTION_TRANSLATION_JOIN}
         WHERE c.helpdesk_id = lang.helpdesk_id ORDER BY c.created_at, c.id`,
        [language],
      ),
      this.tx.query<LiveCountRow>(
        `SELECT a.section_id AS "sectionId", a.collection_id AS "collectionId", count(*)::int AS count, max(a.published_at) AS "lastPublishedAt"
         FROM articles a WHERE a.status = 'published' GROUP BY a.section_id, a.collection_id`,
      ),
    ]);
    return { sections, collections, counts };
  }

  recentArticles(language: string | null, limit: number): Promise<ArticleLinkRow[]> {
    return this.tx.query<ArticleLinkRow>(
      `WITH ${langCte('$1')}
       SELECT ${linkColumns()} FROM articles a CROSS JOIN lang ${linkJoins()}
       WHERE a.status = 'published' ORDER BY a.published_at DESC, a.id DESC LIMIT $2`,
      [language, limit],
    );
  }

  collectionArticles(shortId: string, language: string | null): Promise<ArticleLinkRow[]> {
    return this.tx.query<ArticleLinkRow>(
      `WITH ${langCte('$1')}
       SELECT ${linkColumns()} FROM collections c CROSS JOIN lang JOIN articles a ON a.collection_id = c.id AND a.status = 'published' ${linkJoins()}
       WHERE c.helpdesk_id = lang.helpdesk_id AND c.short_id = $2 ORDER BY a.created_at, a.id`,
      [language, shortId],
    );
  }

  sectionArticles(sectionId: string, language: string | null): Promise<ArticleLinkRow[]> {
    return this.tx.query<ArticleLinkRow>(
      `WITH ${langCte('$1')}
       SELECT ${linkColumns()} FROM articles a CROSS JOIN lang ${linkJoins()}
       WHERE a.section_id = $2 AND a.collection_id IS NULL AND a.status = 'published' ORDER BY a.created_at, a.id`,
      [language, sectionId],
    );
  }

  async findArticle(slug: string, language: string | null): Promise<ArticleLookup> {
    const [row] = await this.tx.query<ArticlePageRow>(ARTICLE_PAGE_SQL, [slug, language]);
    if (!row) return null;
    if (row.moved) return { kind: 'moved', slug: row.slug };
    return {
      kind: 'live',
      article: {
        id: row.id,
        slug: row.slug,
        title: row.title,
        language: row.language,
        summary: row.summary ?? '',
        updatedAt: row.updatedAt,
        publishedAt: row.publishedAt,
        sectionId: row.sectionId,
        collectionId: row.collectionId,
        metaDescription: row.metaDescription,
        keywords: row.keywords,
        ogImage: row.ogImage,
        body:
          row.translationId !== null && row.translationPublishedAt !== null
            ? { translationId: row.translationId, publishedAt: row.translationPublishedAt }
            : { revisionId: row.liveRevisionId },
        translations: row.translations,
        section: { id: row.section.id, name: row.section.name, language: row.section.language },
        collections: row.collections.map(crumb),
        related: row.related.map(fromJson),
        previous: row.previous ? fromJson(row.previous) : null,
        next: row.next ? fromJson(row.next) : null,
      },
    };
  }

  async bodyDocument(source: BodySource): Promise<BodyDocument | null> {
    const [row] =
      'revisionId' in source
        ? await this.tx.query<BodyDocument>('SELECT content_json AS json, NULL AS "publishedAt" FROM article_revisions WHERE id = $1', [source.revisionId])
        : await this.tx.query<BodyDocument>('SELECT published_json AS json, published_at AS "publishedAt" FROM article_translations WHERE id = $1 AND published_json IS NOT NULL', [
            source.translationId,
          ]);
    return row ?? null;
  }

  /**
   * Ranks every match, then builds snippets for the one page only (as the API's search does: ts_headline re-parses
   * a whole body). The configuration is a parameter: a plan-time constant, so the GIN index is used.
   */
  async search(query: string, language: string | null, offset: number, limit: number): Promise<SearchHitRow[]> {
    const [{ config } = { config: 'simple' }] = await this.tx.query<{ config: string }>(
      'SELECT help_search_config(coalesce($1::text, (SELECT default_language FROM helpdesks LIMIT 1)))::text AS config',
      [language],
    );
    const ranked =
      language === null
        ? `SELECT a.id, ts_rank_cd(a.search_vector, q) AS rank
           FROM articles a, websearch_to_tsquery($2::regconfig, $1) q
           WHERE a.status = 'published' AND a.search_vector @@ q`
        : `SELECT a.id, ts_rank_cd(t.search_vector, q) AS rank
           FROM article_translations t JOIN articles a ON a.id = t.article_id, websearch_to_tsquery($2::regconfig, $1) q
           WHERE a.status = 'published' AND t.locale = $3 AND t.published_at IS NOT NULL AND t.search_vector @@ q`;
    return this.tx.query<SearchHitRow>(
      `WITH ${langCte('$3')},
         page AS (SELECT s.id, s.rank FROM (${ranked}) s ORDER BY s.rank DESC, s.id DESC LIMIT $4 OFFSET $5)
       SELECT ${linkColumns()},
         help_snippet($2::regconfig, help_plain_text(CASE WHEN t.id IS NULL THEN r.content_markdown ELSE t.published_markdown END), websearch_to_tsquery($2::regconfig, $1)) AS snippet
       FROM page p JOIN articles a ON a.id = p.id CROSS JOIN lang ${linkJoins()}
       ORDER BY p.rank DESC, p.id DESC`,
      [query, config, language, limit, offset],
    );
  }

  sitemapArticles(): Promise<SitemapRow[]> {
    return this.tx.query<SitemapRow>(
      `SELECT a.slug, greatest(a.published_at, max(t.published_at)) AS "lastModified",
         coalesce(array_agg(t.locale ORDER BY t.locale) FILTER (WHERE t.locale IS NOT NULL), '{}') AS translations
       FROM articles a LEFT JOIN article_translations t ON t.article_id = a.id AND t.published_at IS NOT NULL
       WHERE a.status = 'published' GROUP BY a.id ORDER BY a.created_at, a.id`,
    );
  }

  feed(language: string | null, limit: number): Promise<ArticleLinkRow[]> {
    if (language === null) return this.recentArticles(null, limit);
    return this.tx.query<ArticleLinkRow>(
      `WITH ${langCte('$1')}
       SELECT ${linkColumns()} FROM lang JOIN article_translations t ON t.locale = lang.tl AND t.published_at IS NOT NULL
         JOIN articles a ON a.id = t.article_id AND a.status = 'published' JOIN article_revisions r ON r.id = a.live_revision_id
       ORDER BY t.published_at DESC, a.id DESC LIMIT $2`,
      [language, limit],
    );
  }
}
