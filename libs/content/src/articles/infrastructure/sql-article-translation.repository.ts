import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#core';
import { ArticleTranslationRepository } from '../application/article-translation.repository.js';
import type { ArticleTranslation } from '../domain/article-translation.js';
import type { ArticleContent } from '../domain/article.js';
import { type ContentRow, toContent } from './article-rows.js';

interface TranslationRow extends ContentRow {
  id: string;
  articleId: string;
  locale: string;
  title: string;
  publishedTitle: string | null;
  publishedJson: Record<string, unknown> | null;
  publishedMarkdown: string | null;
  publishedHtml: string | null;
  publishedAt: Date | null;
  outdated: boolean;
  createdAt: Date;
  updatedAt: Date;
}

const TRANSLATION_COLUMNS = `t.id, t.article_id AS "articleId", t.locale, t.title, t.content_json AS "contentJson",
  t.content_markdown AS "contentMarkdown", t.content_html AS "contentHtml", t.published_title AS "publishedTitle",
  t.published_json AS "publishedJson", t.published_markdown AS "publishedMarkdown", t.published_html AS "publishedHtml",
  t.published_at AS "publishedAt", t.outdated, t.created_at AS "createdAt", t.updated_at AS "updatedAt"`;

function toTranslation(row: TranslationRow): ArticleTranslation {
  return {
    id: row.id,
    articleId: row.articleId,
    locale: row.locale,
    title: row.title,
    content: toContent(row),
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

/** Article translations in PostgreSQL, plain SQL. */
@Injectable()
export class SqlArticleTranslationRepository extends ArticleTranslationRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async find(articleId: string, locale: string): Promise<ArticleTranslation | null> {
    const [row] = await this.tx.query<TranslationRow>(`SELECT ${TRANSLATION_COLUMNS} FROM article_translations t WHERE t.article_id = $1 AND t.locale = $2`, [articleId, locale]);
    return row ? toTranslation(row) : null;
  }

  async list(articleId: string): Promise<ArticleTranslation[]> {
    const rows = await this.tx.query<TranslationRow>(`SELECT ${TRANSLATION_COLUMNS} FROM article_translations t WHERE t.article_id = $1 ORDER BY t.locale`, [articleId]);
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
}
