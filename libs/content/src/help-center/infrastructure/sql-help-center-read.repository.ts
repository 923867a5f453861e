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

/** Markdown read for a summary: its start is enough (the use case keeps about 200 characters of its words). */
const TEXT_START_CHARS = 600;

/**
 * A live article as lists show it, on article alias `a`, its live revision `r` and its published translation into
 * the asked language `t` (absent: the default language's text). Needs `lang` in the FROM list.
 */
function linkColumns(a = 'a', r = 'r', t = 't'): string {
  return `${a}.id, ${a}.slug, coalesce(${t}.published_title, ${r}.title) AS title, coalesce(${t}.locale, lang.default_language) AS language,
    CASE WHEN ${t}.id IS NULL THEN ${a}.meta_description END AS description,
    left(coalesce(${t}.published_markdown, ${r}.content_markdown), ${TEXT_START_CHARS}) AS "textStart",
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

/** Other live articles near the page's article `art` (IDs only: the links are read once for all of them). */
const near = (k: number, where: string, order: string, limit: number) =>
  `SELECT ${k} AS k, o.id FROM art, LATERAL (
     SELECT o.id FROM articles o WHERE o.status = 'published' AND o.id <> art.id AND ${where} ORDER BY ${order} LIMIT ${limit}) o
   WHERE NOT art.moved`;

/** Parts of the article page's rows (column `k`). */
const PAGE = { article: -1, relatedInCollection: 0, relatedInSection: 1, previous: 2, next: 3 } as const;

/**
 * The article page in one statement: the live article under the slug (or, through the slug history, the one that
 * was), its text in the asked language, its section and collection trail (with live counts), related articles and
 * its neighbours in its collection, one row each (`k`, see PAGE). One snapshot: a slug changing meanwhile shows
 * either the old page or the move. Related articles and neighbours are found by index (IDs), then read with the
 * article in one join.
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
    SELECT hit.moved, a.id, a.section_id, a.collection_id, a.created_at
    FROM hit JOIN articles a ON a.id = hit.id AND a.status = 'published'),
  pick AS (
    SELECT ${PAGE.article} AS k, art.id FROM art
    UNION ALL ${near(PAGE.relatedInCollection, 'o.collection_id = art.collection_id', 'o.published_at DESC, o.id DESC', 5)}
    UNION ALL ${near(
      PAGE.relatedInSection,
      'o.section_id = art.section_id AND (art.collection_id IS NULL OR o.collection_id IS DISTINCT FROM art.collection_id)',
      'o.published_at DESC, o.id DESC',
      5,
    )}
    UNION ALL ${near(PAGE.previous, 'o.collection_id = art.collection_id AND (o.created_at, o.id) < (art.created_at, art.id)', 'o.created_at DESC, o.id DESC', 1)}
    UNION ALL ${near(PAGE.next, 'o.collection_id = art.collection_id AND (o.created_at, o.id) > (art.created_at, art.id)', 'o.created_at, o.id', 1)}),
  up(id, parent_id, depth) AS (
    SELECT c.id, c.parent_collection_id, 0 FROM collections c JOIN art ON c.id = art.collection_id WHERE NOT art.moved
    UNION ALL
    SELECT c.id, c.parent_collection_id, up.depth + 1 FROM collections c JOIN up ON c.id = up.parent_id WHERE up.depth < 100),
  down(id, root) AS (
    SELECT id, id FROM up
    UNION ALL
    SELECT c.id, down.root FROM collections c JOIN down ON c.parent_collection_id = down.id)
SELECT p.k, art.moved, ${linkColumns()},
  a.section_id AS "sectionId", a.collection_id AS "collectionId", a.meta_description AS "metaDescription", a.keywords, a.og_image AS "ogImage",
  a.live_revision_id AS "liveRevisionId", t.id AS "translationId", t.published_at AS "translationPublishedAt",
  CASE WHEN p.k = ${PAGE.article} THEN ARRAY(SELECT l.locale FROM article_translations l WHERE l.article_id = a.id AND l.published_at IS NOT NULL ORDER BY l.locale) END AS translations,
  CASE WHEN p.k = ${PAGE.article} THEN (SELECT row_to_json(x) FROM (SELECT ${SECTION_COLUMNS} FROM sections s ${SECTION_TRANSLATION_JOIN} WHERE s.id = a.section_id) x) END AS section,
  CASE WHEN p.k = ${PAGE.article} THEN (SELECT coalesce(json_agg(x ORDER BY x.depth DESC), '[]'::json) FROM (
     SELECT up.depth, ${COLLECTION_COLUMNS},
       (SELECT count(*) FROM articles n WHERE n.status = 'published' AND n.collection_id IN (SELECT d.id FROM down d WHERE d.root = up.id))::int AS "articleCount"
     FROM up JOIN collections c ON c.id = up.id ${COLLECTION_TRANSLATION_JOIN}) x) END AS collections
FROM pick p CROSS JOIN art JOIN articles a ON a.id = p.id CROSS JOIN lang ${linkJoins()}
ORDER BY p.k, a.published_at DESC, a.id DESC`;

interface ArticlePageRow extends ArticleLinkRow {
  k: number;
  moved: boolean;
  sectionId: string;
  collectionId: string | null;
  metaDescription: string | null;
  keywords: string | null;
  ogImage: string | null;
  liveRevisionId: string;
  translationId: string | null;
  translationPublishedAt: Date | null;
  translations: string[] | null;
  section: SectionRow | null;
  collections: CrumbCollectionRow[] | null;
}

function link(row: ArticleLinkRow): ArticleLinkRow {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    language: row.language,
    description: row.description,
    textStart: row.textStart,
    updatedAt: row.updatedAt,
    publishedAt: row.publishedAt,
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

/**
 * The public help center's reads in PostgreSQL, plain SQL. Each read is one statement (independent ones run at
 * once), and each is a named prepared statement (TransactionHost.prepared): planned once per connection, which
 * matters here (the article page's statement takes longer to plan than to run).
 */
@Injectable()
export class SqlHelpCenterReadRepository extends HelpCenterReadRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  /** `sql` under `name` (one name per statement text), prepared on each pooled connection the first time it runs there. */
  private read<R>(name: string, sql: string, params: readonly unknown[] = []): Promise<R[]> {
    return this.tx.prepared<R>(`help_center_${name}`, sql, params);
  }

  async site(): Promise<SiteRow | null> {
    const [row] = await this.read<SiteRow>(
      'site',
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
      this.read<SectionRow>(
        'sections',
        `WITH ${langCte('$1')}
         SELECT ${SECTION_COLUMNS} FROM sections s CROSS JOIN lang ${SECTION_TRANSLATION_JOIN}
         WHERE s.helpdesk_id = lang.helpdesk_id ORDER BY s.position, s.id`,
        [language],
      ),
      this.read<CollectionRow>(
        'collections',
        `WITH ${langCte('$1')}
         SELECT ${COLLECTION_COLUMNS} FROM collections c CROSS JOIN lang ${COLLECTION_TRANSLATION_JOIN}
         WHERE c.helpdesk_id = lang.helpdesk_id ORDER BY c.created_at, c.id`,
        [language],
      ),
      this.read<LiveCountRow>(
        'live_counts',
        `SELECT a.section_id AS "sectionId", a.collection_id AS "collectionId", count(*)::int AS count, max(a.published_at) AS "lastPublishedAt"
         FROM articles a WHERE a.status = 'published' GROUP BY a.section_id, a.collection_id`,
      ),
    ]);
    return { sections, collections, counts };
  }

  recentArticles(language: string | null, limit: number): Promise<ArticleLinkRow[]> {
    return this.read<ArticleLinkRow>(
      'recent_articles',
      `WITH ${langCte('$1')}
       SELECT ${linkColumns()} FROM articles a CROSS JOIN lang ${linkJoins()}
       WHERE a.status = 'published' ORDER BY a.published_at DESC, a.id DESC LIMIT $2`,
      [language, limit],
    );
  }

  collectionArticles(shortId: string, language: string | null): Promise<ArticleLinkRow[]> {
    return this.read<ArticleLinkRow>(
      'collection_articles',
      `WITH ${langCte('$1')}
       SELECT ${linkColumns()} FROM collections c CROSS JOIN lang JOIN articles a ON a.collection_id = c.id AND a.status = 'published' ${linkJoins()}
       WHERE c.helpdesk_id = lang.helpdesk_id AND c.short_id = $2 ORDER BY a.created_at, a.id`,
      [language, shortId],
    );
  }

  sectionArticles(sectionId: string, language: string | null): Promise<ArticleLinkRow[]> {
    return this.read<ArticleLinkRow>(
      'section_articles',
      `WITH ${langCte('$1')}
       SELECT ${linkColumns()} FROM articles a CROSS JOIN lang ${linkJoins()}
       WHERE a.section_id = $2 AND a.collection_id IS NULL AND a.status = 'published' ORDER BY a.created_at, a.id`,
      [language, sectionId],
    );
  }

  async findArticle(slug: string, language: string | null): Promise<ArticleLookup> {
    const rows = await this.read<ArticlePageRow>('article_page', ARTICLE_PAGE_SQL, [slug, language]);
    const row = rows[0];
    if (!row || row.k !== PAGE.article) return null;
    if (row.moved) return { kind: 'moved', slug: row.slug };
    const part = (k: number) => rows.filter((other) => other.k === k).map(link);
    return {
      kind: 'live',
      article: {
        ...link(row),
        sectionId: row.sectionId,
        collectionId: row.collectionId,
        metaDescription: row.metaDescription,
        keywords: row.keywords,
        ogImage: row.ogImage,
        body:
          row.translationId !== null && row.translationPublishedAt !== null
            ? { translationId: row.translationId, publishedAt: row.translationPublishedAt }
            : { revisionId: row.liveRevisionId },
        translations: row.translations ?? [],
        section: { id: row.section!.id, name: row.section!.name, language: row.section!.language },
        collections: (row.collections ?? []).map(crumb),
        related: [...part(PAGE.relatedInCollection), ...part(PAGE.relatedInSection)].slice(0, 5),
        previous: part(PAGE.previous)[0] ?? null,
        next: part(PAGE.next)[0] ?? null,
      },
    };
  }

  async bodyDocument(source: BodySource): Promise<BodyDocument | null> {
    const [row] =
      'revisionId' in source
        ? await this.read<BodyDocument>('revision_body', 'SELECT content_json AS json, NULL AS "publishedAt" FROM article_revisions WHERE id = $1', [
            source.revisionId,
          ])
        : await this.read<BodyDocument>(
            'translation_body',
            'SELECT published_json AS json, published_at AS "publishedAt" FROM article_translations WHERE id = $1 AND published_json IS NOT NULL',
            [source.translationId],
          );
    return row ?? null;
  }

  /**
   * Ranks every match, then builds snippets for the one page only (as the API's search does: ts_headline re-parses
   * a whole body). The configuration is a parameter: a plan-time constant, so the GIN index is used.
   */
  async search(query: string, language: string | null, offset: number, limit: number): Promise<SearchHitRow[]> {
    const [{ config } = { config: 'simple' }] = await this.read<{ config: string }>(
      'search_config',
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
    // Not prepared: how many articles a query matches varies too much for one generic plan to suit all queries.
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
    return this.read<SitemapRow>(
      'sitemap',
      `SELECT a.slug, greatest(a.published_at, max(t.published_at)) AS "lastModified",
         coalesce(array_agg(t.locale ORDER BY t.locale) FILTER (WHERE t.locale IS NOT NULL), '{}') AS translations
       FROM articles a LEFT JOIN article_translations t ON t.article_id = a.id AND t.published_at IS NOT NULL
       WHERE a.status = 'published' GROUP BY a.id ORDER BY a.created_at, a.id`,
    );
  }

  feed(language: string | null, limit: number): Promise<ArticleLinkRow[]> {
    if (language === null) return this.recentArticles(null, limit);
    return this.read<ArticleLinkRow>(
      'translated_feed',
      `WITH ${langCte('$1')}
       SELECT ${linkColumns()} FROM article_translations t CROSS JOIN lang
         JOIN articles a ON a.id = t.article_id AND a.status = 'published' JOIN article_revisions r ON r.id = a.live_revision_id
       WHERE t.locale = $1 AND t.locale = lang.tl AND t.published_at IS NOT NULL
       ORDER BY t.published_at DESC, t.article_id DESC LIMIT $2`,
      [language, limit],
    );
  }
}
