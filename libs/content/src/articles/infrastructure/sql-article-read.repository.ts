import { Injectable } from '@nestjs/common';
import { type KeysetQuery, type KeysetSlice, readKeysetRows, TransactionHost } from '#core';
import {
  type ArticleFilter,
  ArticleReadRepository,
  type ArticleRecord,
  type ContentFormat,
  type DraftView,
  type RevisionRef,
  type SearchHit,
} from '../application/article-read.repository.js';
import { type ArticleRevision, ARTICLE_STATUSES } from '../domain/article.js';
import { ARTICLE_COLUMNS, type ArticleRow, REVISION_COLUMNS, type RevisionRow, toRevision } from './article-rows.js';

const CONTENT_COLUMN: Record<ContentFormat, string> = { html: 'content_html', markdown: 'content_markdown', json: 'content_json' };

/** SELECT of an article record per format: the article, its shown revision's title and body in the format, its draft. */
const RECORD_SELECT: Record<ContentFormat, string> = Object.fromEntries(
  Object.entries(CONTENT_COLUMN).map(([format, column]) => [
    format,
    `SELECT ${ARTICLE_COLUMNS}, a.row_version AS "rowVersion", r.title AS "title", r.${column} AS "content", d.id AS "draftId"
      FROM articles a
      LEFT JOIN article_revisions r ON r.id = a.current_revision_id
      LEFT JOIN article_drafts d ON d.article_id = a.id`,
  ]),
) as Record<ContentFormat, string>;

interface RecordRow extends ArticleRow {
  rowVersion: number;
  title: string | null;
  content: string | Record<string, unknown> | null;
  draftId: string | null;
}

function toRecord(row: RecordRow): ArticleRecord {
  const { title, content, draftId, rowVersion, ...props } = row;
  return { props, title: title ?? '', content, draftId, rowVersion };
}

/** The read model of articles in PostgreSQL, plain SQL: records, lists, drafts, revisions, search, coverage. */
@Injectable()
export class SqlArticleReadRepository extends ArticleReadRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async findRecord(id: string, format: ContentFormat): Promise<ArticleRecord | null> {
    const [row] = await this.tx.query<RecordRow>(`${RECORD_SELECT[format]} WHERE a.id = $1`, [id]);
    return row ? toRecord(row) : null;
  }

  /**
   * Status as literal conditions the planner can match to the (status, created_at, id) and non-trashed partial
   * indexes: with `status = ANY($1)` it sorted every article to serve page 1.
   */
  private filterSql(filter: ArticleFilter): { conditions: string[]; params: unknown[] } {
    // A closed set of values, checked, so writing them into the SQL is safe.
    const statuses = [...new Set(filter.statuses)].sort();
    if (statuses.some((status) => !ARTICLE_STATUSES.includes(status))) throw new Error(`Unknown article status in ${statuses.join()}`);
    const conditions =
      statuses.length === 1
        ? [`a.status = '${statuses[0]}'`]
        : statuses.join() === 'draft,published'
          ? [`a.status <> 'trashed'`]
          : [`a.status IN (${statuses.map((status) => `'${status}'`).join(', ')})`];
    const params: unknown[] = [];
    if (filter.collectionId !== undefined) {
      params.push(filter.collectionId);
      conditions.push(`a.collection_id = $${params.length}`);
    }
    if (filter.sectionId !== undefined) {
      params.push(filter.sectionId);
      conditions.push(`a.section_id = $${params.length}`);
    }
    if (filter.updatedSince !== undefined) {
      params.push(filter.updatedSince);
      conditions.push(`a.updated_at >= $${params.length}`);
    }
    return { conditions, params };
  }

  async list(query: KeysetQuery, filter: ArticleFilter, format: ContentFormat): Promise<KeysetSlice<ArticleRecord>> {
    const { conditions, params } = this.filterSql(filter);
    const slice = await readKeysetRows<RecordRow>(
      this.tx,
      { select: RECORD_SELECT[format], alias: 'a', conditions, params, columns: { created_desc: 'a.created_at', updated_asc: 'a.updated_at' } },
      query,
    );
    return { rows: slice.rows.map(toRecord), hasMore: slice.hasMore };
  }

  async listOffset(filter: ArticleFilter, format: ContentFormat, limit: number, offset: number): Promise<{ records: ArticleRecord[]; total: number }> {
    const { conditions, params } = this.filterSql(filter);
    const where = ` WHERE ${conditions.join(' AND ')}`;
    const [rows, [count]] = await Promise.all([
      this.tx.query<RecordRow>(`${RECORD_SELECT[format]}${where} ORDER BY a.created_at DESC, a.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [
        ...params,
        limit,
        offset,
      ]),
      this.tx.query<{ total: number }>(`SELECT COUNT(*)::int AS total FROM articles a${where}`, params),
    ]);
    return { records: rows.map(toRecord), total: count?.total ?? 0 };
  }

  async findDraft(articleId: string, format: ContentFormat): Promise<DraftView | null> {
    const [row] = await this.tx.query<DraftView>(
      `SELECT d.id, d.article_id AS "articleId", r.title, r.${CONTENT_COLUMN[format]} AS "content", d.base_revision_id AS "baseRevisionId",
         d.updated_at AS "updatedAt"
       FROM article_drafts d JOIN article_revisions r ON r.id = d.revision_id
       WHERE d.article_id = $1`,
      [articleId],
    );
    return row ?? null;
  }

  async findRevision(articleId: string, ref: RevisionRef): Promise<ArticleRevision | null> {
    const [column, value] = 'version' in ref ? ['version', ref.version] : ['id', ref.id];
    const [row] = await this.tx.query<RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM article_revisions r WHERE r.article_id = $1 AND r.${column} = $2`, [articleId, value]);
    return row ? toRevision(row) : null;
  }

  async listRevisions(articleId: string, query: KeysetQuery, liveOnly: boolean): Promise<KeysetSlice<ArticleRevision>> {
    const slice = await readKeysetRows<RevisionRow>(
      this.tx,
      {
        select: `SELECT ${REVISION_COLUMNS} FROM article_revisions r`,
        alias: 'r',
        conditions: liveOnly ? ['r.article_id = $1', 'r.went_live_at IS NOT NULL'] : ['r.article_id = $1'],
        params: [articleId],
        columns: { created_desc: 'r.created_at' },
      },
      query,
    );
    return { rows: slice.rows.map(toRevision), hasMore: slice.hasMore };
  }

  /**
   * Ranks every match, then builds snippets for the one page only: ts_headline re-parses a whole body, far too
   * costly to run on every match of a common word.
   */
  async search(input: { query: string; locale: string | null; language: string }, page: KeysetQuery): Promise<KeysetSlice<SearchHit>> {
    const translated = input.locale !== null;
    // The configuration as a regconfig parameter: the text search query must be a plan-time constant for the GIN
    // index to be used, and a text-to-regconfig cast inside the query is not one (it read every vector).
    const [{ config } = { config: 'simple' }] = await this.tx.query<{ config: string }>('SELECT help_search_config($1)::text AS config', [input.language]);
    const params: unknown[] = [input.query, config];
    let ranked: string;
    if (translated) {
      ranked = `SELECT a.id, ts_rank_cd(t.search_vector, q) AS rank
        FROM article_translations t JOIN articles a ON a.id = t.article_id, websearch_to_tsquery($2::regconfig, $1) q
        WHERE a.status = 'published' AND t.locale = $${params.push(input.locale)} AND t.published_at IS NOT NULL AND t.search_vector @@ q`;
    } else {
      ranked = `SELECT a.id, ts_rank_cd(a.search_vector, q) AS rank
        FROM articles a, websearch_to_tsquery($2::regconfig, $1) q
        WHERE a.status = 'published' AND a.search_vector @@ q`;
    }
    let after = '';
    if (page.after) {
      params.push(page.after.value, page.after.id);
      after = ` WHERE (s.rank, s.id) < ($${params.length - 1}::real, $${params.length})`;
    }
    params.push(page.pageSize + 1);
    const limit = `$${params.length}`;
    // help_snippet (see the search-snippets migration): single-spaced plain text, matched words between U+0001
    // and U+0002 (control characters help_plain_text keeps out of the text), turned into <mark> after escaping.
    const details = translated
      ? `SELECT p.id AS "articleId", t.locale, t.published_title AS title, a.slug, a.section_id AS "sectionId", a.collection_id AS "collectionId",
           t.published_at AS "publishedAt", p.rank,
           help_snippet($2::regconfig, help_plain_text(t.published_markdown), websearch_to_tsquery($2::regconfig, $1)) AS snippet
         FROM page p JOIN articles a ON a.id = p.id JOIN article_translations t ON t.article_id = p.id AND t.locale = $3`
      : `SELECT p.id AS "articleId", h.default_language AS locale, r.title, a.slug, a.section_id AS "sectionId", a.collection_id AS "collectionId",
           a.published_at AS "publishedAt", p.rank,
           help_snippet($2::regconfig, help_plain_text(r.content_markdown), websearch_to_tsquery($2::regconfig, $1)) AS snippet
         FROM page p JOIN articles a ON a.id = p.id JOIN helpdesks h ON h.id = a.helpdesk_id JOIN article_revisions r ON r.id = a.live_revision_id`;
    const rows = await this.tx.query<SearchHit>(
      `WITH page AS (SELECT * FROM (${ranked}) s${after} ORDER BY s.rank DESC, s.id DESC LIMIT ${limit})
       ${details} ORDER BY p.rank DESC, p.id DESC`,
      params,
    );
    const hasMore = rows.length > page.pageSize;
    return { rows: (hasMore ? rows.slice(0, page.pageSize) : rows).map((row) => ({ ...row, rank: Number(row.rank) })), hasMore };
  }

  async missingTranslations(locales: readonly string[]): Promise<Record<string, string[]>> {
    const rows = await this.tx.query<{ locale: string; ids: string[] | null }>(
      `SELECT l.locale, array_agg(a.id ORDER BY a.created_at, a.id) FILTER (WHERE a.id IS NOT NULL) AS ids
       FROM unnest($1::text[]) AS l(locale)
       LEFT JOIN articles a ON a.status = 'published'
         AND NOT EXISTS (SELECT 1 FROM article_translations t WHERE t.article_id = a.id AND t.locale = l.locale)
       GROUP BY l.locale`,
      [locales],
    );
    const missing: Record<string, string[]> = {};
    for (const locale of locales) missing[locale] = rows.find((r) => r.locale === locale)?.ids ?? [];
    return missing;
  }
}
