import { Injectable } from '@nestjs/common';
import { type KeysetQuery, type KeysetSlice, TransactionHost } from '#core';
import { ArticleTranslationRepository, type SearchHit } from '../application/article-translation.repository.js';
import type { ArticleTranslation } from '../domain/article-translation.js';
import type { ArticleContent } from '../domain/article.js';

interface TranslationRow {
  id: string;
  articleId: string;
  locale: string;
  title: string;
  contentJson: Record<string, unknown>;
  contentMarkdown: string;
  contentHtml: string;
  publishedTitle: string | null;
  publishedJson: Record<string, unknown> | null;
  publishedMarkdown: string | null;
  publishedHtml: string | null;
  publishedAt: Date | null;
  outdated: boolean;
  createdAt: Date;
  updatedAt: Date;
}

const SELECT = `SELECT t.id, t.article_id AS "articleId", t.locale, t.title, t.content_json AS "contentJson",
  t.content_markdown AS "contentMarkdown", t.content_html AS "contentHtml", t.published_title AS "publishedTitle",
  t.published_json AS "publishedJson", t.published_markdown AS "publishedMarkdown", t.published_html AS "publishedHtml",
  t.published_at AS "publishedAt", t.outdated, t.created_at AS "createdAt", t.updated_at AS "updatedAt"
  FROM article_translations t`;

function toTranslation(row: TranslationRow): ArticleTranslation {
  return {
    id: row.id,
    articleId: row.articleId,
    locale: row.locale,
    title: row.title,
    content: { json: row.contentJson, markdown: row.contentMarkdown, html: row.contentHtml },
    published:
      row.publishedAt && row.publishedTitle !== null
        ? { title: row.publishedTitle, content: { json: row.publishedJson!, markdown: row.publishedMarkdown!, html: row.publishedHtml! } }
        : null,
    publishedAt: row.publishedAt,
    outdated: row.outdated,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

@Injectable()
export class TypeOrmArticleTranslationRepository extends ArticleTranslationRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async find(articleId: string, locale: string): Promise<ArticleTranslation | null> {
    const [row] = await this.tx.query<TranslationRow>(`${SELECT} WHERE t.article_id = $1 AND t.locale = $2`, [articleId, locale]);
    return row ? toTranslation(row) : null;
  }

  async list(articleId: string): Promise<ArticleTranslation[]> {
    const rows = await this.tx.query<TranslationRow>(`${SELECT} WHERE t.article_id = $1 ORDER BY t.locale`, [articleId]);
    return rows.map(toTranslation);
  }

  async putDraft(input: { id: string; articleId: string; locale: string; title: string; content: ArticleContent; at: Date }): Promise<{ created: boolean }> {
    const [row] = await this.tx.query<{ created: boolean }>(
      `INSERT INTO article_translations (id, article_id, locale, title, content_json, content_markdown, content_html, outdated, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, false, $8, $8)
       ON CONFLICT ON CONSTRAINT article_translations_locale_key DO UPDATE SET
         title = EXCLUDED.title, content_json = EXCLUDED.content_json, content_markdown = EXCLUDED.content_markdown,
         content_html = EXCLUDED.content_html, outdated = false, updated_at = EXCLUDED.updated_at
       RETURNING (xmax = 0) AS created`,
      [input.id, input.articleId, input.locale, input.title, JSON.stringify(input.content.json), input.content.markdown, input.content.html, input.at],
    );
    return { created: row!.created };
  }

  async publish(articleId: string, locale: string, at: Date): Promise<void> {
    await this.tx.query(
      `UPDATE article_translations SET published_title = title, published_json = content_json, published_markdown = content_markdown,
         published_html = content_html, published_at = $3,
         search_vector = setweight(to_tsvector(help_search_config(locale), title), 'A') || setweight(to_tsvector(help_search_config(locale), help_plain_text(content_markdown)), 'B')
       WHERE article_id = $1 AND locale = $2`,
      [articleId, locale, at],
    );
  }

  async markOutdated(articleId: string, at: Date): Promise<void> {
    await this.tx.query(`UPDATE article_translations SET outdated = true WHERE article_id = $1 AND updated_at < $2 AND NOT outdated`, [articleId, at]);
  }

  async missing(locales: readonly string[]): Promise<Record<string, string[]>> {
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
}
