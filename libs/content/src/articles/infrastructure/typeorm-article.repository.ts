import { Injectable } from '@nestjs/common';
import { columnList, type KeysetQuery, type KeysetSlice, readKeysetRows, selectColumns, TransactionHost } from '#core';
import {
  type ArticleFilter,
  type ArticleRecord,
  ArticleRepository,
  type ContentFormat,
  type FindOptions,
} from '../application/article.repository.js';
import { Article, type ArticleDraft, type ArticleProps, type ArticleRevision, ARTICLE_STATUSES } from '../domain/article.js';
import { ArticleDraftOrmEntity, ArticleOrmEntity, ArticleRevisionOrmEntity } from './article.orm-entity.js';

/** Advisory-lock key space of slug choices (the second key is the slug's base). */
const SLUG_LOCK_SPACE = 724_311;
const CONTENT_COLUMN: Record<ContentFormat, string> = { html: 'content_html', markdown: 'content_markdown', json: 'content_json' };

interface RecordRow extends ArticleOrmEntity {
  title: string | null;
  content: string | Record<string, unknown> | null;
  draftId: string | null;
}

function toRevision(row: ArticleRevisionOrmEntity): ArticleRevision {
  return {
    id: row.id,
    articleId: row.articleId,
    version: row.version,
    title: row.title,
    content: { json: row.contentJson, markdown: row.contentMarkdown, html: row.contentHtml },
    createdByKeyId: row.createdByKeyId,
    createdAt: row.createdAt,
    wentLiveAt: row.wentLiveAt,
  };
}

function toRecord(row: RecordRow): ArticleRecord {
  const { title, content, draftId, rowVersion, ...props } = row;
  return { props: props as ArticleProps, title: title ?? '', content, draftId, rowVersion };
}

@Injectable()
export class TypeOrmArticleRepository extends ArticleRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  private get articles() {
    return this.tx.manager.getRepository(ArticleOrmEntity);
  }

  /** SELECT of an article record: the article, its shown revision's title and body in one format, its draft. */
  private recordSelect(format: ContentFormat): string {
    return `SELECT ${columnList(this.tx.manager, ArticleOrmEntity, 'a')}, r.title AS "title", r.${CONTENT_COLUMN[format]} AS "content", d.id AS "draftId"
      FROM articles a
      LEFT JOIN article_revisions r ON r.id = a.current_revision_id
      LEFT JOIN article_drafts d ON d.article_id = a.id`;
  }

  async findById(id: string, options: FindOptions = {}): Promise<Article | null> {
    const row = await this.articles.findOne({ where: { id }, ...(options.forUpdate ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
    return row ? new Article({ ...row }) : null;
  }

  async findRecord(id: string, format: ContentFormat): Promise<ArticleRecord | null> {
    const [row] = await this.tx.query<RecordRow>(`${this.recordSelect(format)} WHERE a.id = $1`, [id]);
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
      { select: this.recordSelect(format), alias: 'a', conditions, params, columns: { created_desc: 'a.created_at', updated_asc: 'a.updated_at' } },
      query,
    );
    return { rows: slice.rows.map(toRecord), hasMore: slice.hasMore };
  }

  async listOffset(filter: ArticleFilter, format: ContentFormat, limit: number, offset: number): Promise<{ records: ArticleRecord[]; total: number }> {
    const { conditions, params } = this.filterSql(filter);
    const where = ` WHERE ${conditions.join(' AND ')}`;
    const [rows, [count]] = await Promise.all([
      this.tx.query<RecordRow>(
        `${this.recordSelect(format)}${where} ORDER BY a.created_at DESC, a.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, limit, offset],
      ),
      this.tx.query<{ total: number }>(`SELECT COUNT(*)::int AS total FROM articles a${where}`, params),
    ]);
    return { records: rows.map(toRecord), total: count?.total ?? 0 };
  }

  async insert(article: Article): Promise<void> {
    await this.articles.insert(article.snapshot());
  }

  async update(article: Article): Promise<void> {
    const { id, helpdeskId: _helpdeskId, createdAt: _createdAt, ...fields } = article.snapshot();
    await this.articles
      .createQueryBuilder()
      .update()
      .set({ ...fields, rowVersion: () => 'row_version + 1' })
      .where('id = :id', { id })
      .execute();
    // The live revision is marked as having been live, once: read-only keys see such revisions only.
    if (fields.liveRevisionId) {
      await this.tx.query('UPDATE article_revisions SET went_live_at = $2 WHERE id = $1 AND went_live_at IS NULL', [fields.liveRevisionId, fields.updatedAt]);
    }
  }

  async slugExists(slug: string, exceptArticleId?: string): Promise<boolean> {
    const rows = await this.tx.query(`SELECT 1 FROM articles WHERE slug = $1 AND id IS DISTINCT FROM $2 LIMIT 1`, [slug, exceptArticleId ?? null]);
    return rows.length > 0;
  }

  async lockSlug(base: string): Promise<void> {
    await this.tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [SLUG_LOCK_SPACE, base]);
  }

  async insertRevision(revision: ArticleRevision): Promise<void> {
    await this.tx.manager.getRepository(ArticleRevisionOrmEntity).insert({
      id: revision.id,
      articleId: revision.articleId,
      version: revision.version,
      title: revision.title,
      contentJson: revision.content.json as never,
      contentMarkdown: revision.content.markdown,
      contentHtml: revision.content.html,
      createdByKeyId: revision.createdByKeyId,
      createdAt: revision.createdAt,
    });
  }

  async findRevision(articleId: string, revisionId: string): Promise<ArticleRevision | null> {
    const row = await this.tx.manager.getRepository(ArticleRevisionOrmEntity).findOneBy({ articleId, id: revisionId });
    return row ? toRevision(row) : null;
  }

  async findRevisionByVersion(articleId: string, version: number): Promise<ArticleRevision | null> {
    const row = await this.tx.manager.getRepository(ArticleRevisionOrmEntity).findOneBy({ articleId, version });
    return row ? toRevision(row) : null;
  }

  async listRevisions(articleId: string, query: KeysetQuery, liveOnly = false): Promise<KeysetSlice<ArticleRevision>> {
    const slice = await readKeysetRows<ArticleRevisionOrmEntity>(
      this.tx,
      {
        select: selectColumns(this.tx.manager, ArticleRevisionOrmEntity, 'r'),
        alias: 'r',
        conditions: liveOnly ? ['r.article_id = $1', 'r.went_live_at IS NOT NULL'] : ['r.article_id = $1'],
        params: [articleId],
        columns: { created_desc: 'r.created_at' },
      },
      query,
    );
    return { rows: slice.rows.map(toRevision), hasMore: slice.hasMore };
  }

  async findDraft(articleId: string): Promise<ArticleDraft | null> {
    const row = await this.tx.manager.getRepository(ArticleDraftOrmEntity).findOneBy({ articleId });
    return row ? { ...row } : null;
  }

  async saveDraft(draft: ArticleDraft): Promise<void> {
    await this.tx.manager
      .getRepository(ArticleDraftOrmEntity)
      .createQueryBuilder()
      .insert()
      .values({ ...draft })
      .orUpdate(['revision_id', 'updated_at'], ['article_id'])
      .execute();
  }

  async deleteDraft(articleId: string): Promise<void> {
    await this.tx.manager.getRepository(ArticleDraftOrmEntity).delete({ articleId });
  }

  /** Title weighs more than body; indexed in the helpdesk's default language (help_search_config, see the migration). */
  async refreshSearch(articleId: string): Promise<void> {
    await this.tx.query(
      `UPDATE articles a SET search_vector = (
         SELECT setweight(to_tsvector(help_search_config(h.default_language), r.title), 'A')
             || setweight(to_tsvector(help_search_config(h.default_language), help_plain_text(r.content_markdown)), 'B')
         FROM article_revisions r JOIN helpdesks h ON h.id = a.helpdesk_id
         WHERE r.id = a.live_revision_id)
       WHERE a.id = $1`,
      [articleId],
    );
  }

  async countInSection(sectionId: string): Promise<number> {
    const [row] = await this.tx.query<{ count: number }>(`SELECT COUNT(*)::int AS count FROM articles WHERE section_id = $1`, [sectionId]);
    return row?.count ?? 0;
  }

  async countInCollection(collectionId: string): Promise<number> {
    const [row] = await this.tx.query<{ count: number }>(`SELECT COUNT(*)::int AS count FROM articles WHERE collection_id = $1`, [collectionId]);
    return row?.count ?? 0;
  }
}
