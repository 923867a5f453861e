import { Injectable } from '@nestjs/common';
import { isUniqueViolation, TransactionHost } from '#core';
import { ArticleRepository, type FindOptions } from '../application/article.repository.js';
import { SlugTakenError } from '../domain/article-errors.js';
import { Article, type ArticleDraft, type ArticleProps, type ArticleRevision } from '../domain/article.js';
import { ARTICLE_COLUMNS, type ArticleRow, REVISION_COLUMNS, type RevisionRow, toRevision } from './article-rows.js';

/** Advisory-lock key space of slug choices (the second key is the slug's base). */
const SLUG_LOCK_SPACE = 724_311;

const DRAFT_COLUMNS = `id, article_id AS "articleId", revision_id AS "revisionId", base_revision_id AS "baseRevisionId", created_at AS "createdAt",
  updated_at AS "updatedAt"`;

/**
 * The search document of an article: title weighing more than body, from revision `$rev`, in the helpdesk's
 * default language (help_search_config and help_plain_text, see the migrations). For the UPDATE of `articles a`.
 */
const searchDocumentOf = (rev: string) => `(
  SELECT setweight(to_tsvector(help_search_config(h.default_language), r.title), 'A')
      || setweight(to_tsvector(help_search_config(h.default_language), help_plain_text(r.content_markdown)), 'B')
  FROM article_revisions r JOIN helpdesks h ON h.id = a.helpdesk_id
  WHERE r.id = ${rev})`;

/**
 * The values of the columns an article's writes change, section_id through published_at, in the order both the
 * INSERT ($3-$15) and the UPDATE ($2-$14) list them.
 */
function changeableValues(a: Readonly<ArticleProps>): unknown[] {
  return [
    a.sectionId,
    a.collectionId,
    a.status,
    a.statusBeforeTrash,
    a.slug,
    a.customSlug,
    a.keywords,
    a.metaDescription,
    a.ogImage,
    a.latestVersion,
    a.currentRevisionId,
    a.liveRevisionId,
    a.publishedAt,
  ];
}

/** The article aggregate in PostgreSQL, plain SQL. */
@Injectable()
export class SqlArticleRepository extends ArticleRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async findById(id: string, options: FindOptions = {}): Promise<Article | null> {
    const [row] = await this.tx.query<ArticleRow>(`SELECT ${ARTICLE_COLUMNS} FROM articles a WHERE a.id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`, [id]);
    return row ? new Article(row) : null;
  }

  async versionOf(id: string): Promise<number | null> {
    const [row] = await this.tx.query<{ rowVersion: number }>('SELECT row_version AS "rowVersion" FROM articles WHERE id = $1', [id]);
    return row?.rowVersion ?? null;
  }

  async insert(article: Article): Promise<void> {
    const a = article.snapshot();
    await this.slugGuarded(a.slug, () =>
      this.tx.query(
        // A slug that was another article's old slug is this article's now: that one stops redirecting.
        `WITH freed AS (DELETE FROM article_slug_history WHERE helpdesk_id = $2 AND slug = $7)
         INSERT INTO articles (id, helpdesk_id, section_id, collection_id, status, status_before_trash, slug, custom_slug, keywords, meta_description,
           og_image, latest_version, current_revision_id, live_revision_id, published_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
        [a.id, a.helpdeskId, ...changeableValues(a), a.createdAt, a.updatedAt],
      ),
    );
  }

  /**
   * Every field but the ID, helpdesk and creation time; the version bumped (the ETag). When the live revision
   * changes (publish, unpublish) the search document is made again from it, in the same statement: null when
   * nothing is live.
   */
  async save(article: Article): Promise<void> {
    const a = article.snapshot();
    await this.slugGuarded(a.slug, () =>
      this.tx.query(
        // Slug history, in the same statement (one snapshot, under the article's row lock): a slug change of an
        // article that has been live keeps the old slug, so its links answer 301 to the new one; the new slug stops
        // being an old slug of any article (this one's, taken back, or another's, now taken).
        `WITH prev AS (SELECT p.helpdesk_id, p.slug, p.published_at FROM articles p WHERE p.id = $1),
           kept AS (
             INSERT INTO article_slug_history (helpdesk_id, slug, article_id, created_at)
             SELECT prev.helpdesk_id, prev.slug, $1, $15 FROM prev WHERE prev.slug <> $6 AND prev.published_at IS NOT NULL
             ON CONFLICT (helpdesk_id, slug) DO UPDATE SET article_id = EXCLUDED.article_id, created_at = EXCLUDED.created_at),
           freed AS (DELETE FROM article_slug_history x USING prev WHERE x.helpdesk_id = prev.helpdesk_id AND x.slug = $6 AND prev.slug <> $6)
         UPDATE articles a SET section_id = $2, collection_id = $3, status = $4, status_before_trash = $5, slug = $6, custom_slug = $7,
           keywords = $8, meta_description = $9, og_image = $10, latest_version = $11, current_revision_id = $12, live_revision_id = $13::text,
           published_at = $14, updated_at = $15, row_version = a.row_version + 1,
           search_vector = CASE WHEN a.live_revision_id IS NOT DISTINCT FROM $13::text THEN a.search_vector ELSE ${searchDocumentOf('$13::text')} END
         WHERE a.id = $1`,
        [a.id, ...changeableValues(a), a.updatedAt],
      ),
    );
    // The live revision is marked as having been live, once: read-only keys see such revisions only.
    if (a.liveRevisionId) {
      await this.tx.query('UPDATE article_revisions SET went_live_at = $2 WHERE id = $1 AND went_live_at IS NULL', [a.liveRevisionId, a.updatedAt]);
    }
  }

  /** Two writers racing for one slug: the loser gets slug_taken instead of a constraint error. */
  private async slugGuarded(slug: string, write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (isUniqueViolation(error, 'articles_slug_key')) throw new SlugTakenError(slug);
      throw error;
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
    await this.tx.query(
      `INSERT INTO article_revisions (id, article_id, version, title, content_json, content_markdown, content_html, created_by_key_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        revision.id,
        revision.articleId,
        revision.version,
        revision.title,
        JSON.stringify(revision.content.json),
        revision.content.markdown,
        revision.content.html,
        revision.createdByKeyId,
        revision.createdAt,
      ],
    );
  }

  async findRevision(articleId: string, revisionId: string): Promise<ArticleRevision | null> {
    const [row] = await this.tx.query<RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM article_revisions r WHERE r.article_id = $1 AND r.id = $2`, [articleId, revisionId]);
    return row ? toRevision(row) : null;
  }

  async findDraft(articleId: string): Promise<ArticleDraft | null> {
    const [row] = await this.tx.query<ArticleDraft>(`SELECT ${DRAFT_COLUMNS} FROM article_drafts WHERE article_id = $1`, [articleId]);
    return row ?? null;
  }

  async saveDraft(draft: ArticleDraft): Promise<void> {
    await this.tx.query(
      `INSERT INTO article_drafts (id, article_id, revision_id, base_revision_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (article_id) DO UPDATE SET revision_id = EXCLUDED.revision_id, updated_at = EXCLUDED.updated_at`,
      [draft.id, draft.articleId, draft.revisionId, draft.baseRevisionId, draft.createdAt, draft.updatedAt],
    );
  }

  async deleteDraft(articleId: string): Promise<void> {
    await this.tx.query('DELETE FROM article_drafts WHERE article_id = $1', [articleId]);
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
