import { Injectable } from '@nestjs/common';
import { ConflictError, isUniqueViolation, type KeysetQuery, type KeysetSlice, readKeysetRows, TransactionHost } from '#core';
import { type CollectionFilter, CollectionRepository, type FindOptions } from '../application/collection.repository.js';
import { Collection, type CollectionProps, type CollectionTranslation } from '../domain/collection.js';

const TREE_LOCK_ID = 724_311_101;

const COLLECTION_COLUMNS = `c.id, c.helpdesk_id AS "helpdeskId", c.section_id AS "sectionId", c.parent_collection_id AS "parentCollectionId",
  c.title, c.subtitle, c.short_id AS "shortId", c.created_at AS "createdAt", c.updated_at AS "updatedAt"`;
const SELECT_COLLECTIONS = `SELECT ${COLLECTION_COLUMNS} FROM collections c`;
const TRANSLATION_COLUMNS = `t.id, t.collection_id AS "collectionId", t.language, t.title, t.subtitle, t.status,
  t.created_at AS "createdAt", t.updated_at AS "updatedAt"`;

type CollectionRow = Omit<CollectionProps, 'translations'>;

@Injectable()
export class SqlCollectionRepository extends CollectionRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async findById(id: string, options: FindOptions = {}): Promise<Collection | null> {
    const rows = await this.tx.query<CollectionRow>(`${SELECT_COLLECTIONS} WHERE c.id = $1 LIMIT 1${lockClause(options)}`, [id]);
    return (await this.withTranslations(rows))[0] ?? null;
  }

  async list(query: KeysetQuery, filter: CollectionFilter): Promise<KeysetSlice<Collection>> {
    const bySection = filter.sectionId !== undefined;
    const slice = await readKeysetRows<CollectionRow>(
      this.tx,
      {
        select: SELECT_COLLECTIONS,
        alias: 'c',
        conditions: bySection ? ['c.section_id = $1'] : [],
        params: bySection ? [filter.sectionId] : [],
        columns: { created_desc: 'c.created_at' },
      },
      query,
    );
    return { rows: await this.withTranslations(slice.rows), hasMore: slice.hasMore };
  }

  async shortIdExists(shortId: string): Promise<boolean> {
    const [row] = await this.tx.query<{ exists: boolean }>('SELECT EXISTS (SELECT 1 FROM collections WHERE short_id = $1) AS "exists"', [shortId]);
    return row?.exists ?? false;
  }

  async insert(collection: Collection): Promise<void> {
    const c = collection.snapshot();
    await this.tx
      .query(
        `INSERT INTO collections (id, helpdesk_id, section_id, parent_collection_id, title, subtitle, short_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [c.id, c.helpdeskId, c.sectionId, c.parentCollectionId, c.title, c.subtitle, c.shortId, c.createdAt, c.updatedAt],
      )
      .catch((error: unknown) => shortIdTaken(error, c.shortId));
    await this.saveTranslations(c.translations);
  }

  async update(collection: Collection): Promise<void> {
    const c = collection.snapshot();
    await this.tx
      .query(
        `UPDATE collections SET section_id = $2, parent_collection_id = $3, title = $4, subtitle = $5, short_id = $6, updated_at = $7
         WHERE id = $1`,
        [c.id, c.sectionId, c.parentCollectionId, c.title, c.subtitle, c.shortId, c.updatedAt],
      )
      .catch((error: unknown) => shortIdTaken(error, c.shortId));
    await this.saveTranslations(c.translations);
  }

  async delete(id: string): Promise<void> {
    await this.tx.query('DELETE FROM collections WHERE id = $1', [id]);
  }

  async countChildren(id: string): Promise<number> {
    const [row] = await this.tx.query<{ count: number }>('SELECT COUNT(*)::int AS count FROM collections WHERE parent_collection_id = $1', [id]);
    return row?.count ?? 0;
  }

  async lineage(id: string): Promise<string[]> {
    const rows = await this.tx.query<{ id: string }>(
      `WITH RECURSIVE up(id, parent_collection_id, depth) AS (
         SELECT id, parent_collection_id, 0 FROM collections WHERE id = $1
         UNION ALL
         SELECT c.id, c.parent_collection_id, up.depth + 1 FROM collections c JOIN up ON c.id = up.parent_collection_id
         WHERE up.depth < 1000
       ) SELECT id FROM up ORDER BY depth`,
      [id],
    );
    return rows.map((row) => row.id);
  }

  async setSectionOfDescendants(id: string, sectionId: string | null, at: Date): Promise<string[]> {
    const rows = await this.tx.query<{ id: string }>(
      `WITH RECURSIVE down(id, depth) AS (
         SELECT id, 1 FROM collections WHERE parent_collection_id = $1
         UNION ALL
         SELECT c.id, down.depth + 1 FROM collections c JOIN down ON c.parent_collection_id = down.id WHERE down.depth < 1000
       )
       UPDATE collections SET section_id = $2, updated_at = $3
       WHERE id IN (SELECT id FROM down) AND section_id IS DISTINCT FROM $2
       RETURNING id`,
      [id, sectionId, at],
    );
    return rows.map((row) => row.id).sort();
  }

  async lockTree(): Promise<void> {
    await this.tx.query('SELECT pg_advisory_xact_lock($1)', [TREE_LOCK_ID]);
  }

  /** Upsert on (collection, language): two concurrent PUTs of one translation both succeed, the last one wins. */
  private async saveTranslations(translations: readonly CollectionTranslation[]): Promise<void> {
    if (translations.length === 0) return;
    const column = <K extends keyof CollectionTranslation>(key: K) => translations.map((t) => t[key]);
    await this.tx.query(
      `INSERT INTO collection_translations (id, collection_id, language, title, subtitle, status, created_at, updated_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::timestamptz[])
       ON CONFLICT (collection_id, language) DO UPDATE
         SET title = EXCLUDED.title, subtitle = EXCLUDED.subtitle, status = EXCLUDED.status, updated_at = EXCLUDED.updated_at`,
      [
        column('id'),
        column('collectionId'),
        column('language'),
        column('title'),
        column('subtitle'),
        column('status'),
        column('createdAt'),
        column('updatedAt'),
      ],
    );
  }

  /** The collections with their translations (by language), in the order of `rows`. */
  private async withTranslations(rows: readonly CollectionRow[]): Promise<Collection[]> {
    if (rows.length === 0) return [];
    const translations = await this.tx.query<CollectionTranslation>(
      `SELECT ${TRANSLATION_COLUMNS} FROM collection_translations t WHERE t.collection_id = ANY($1) ORDER BY t.language`,
      [rows.map((row) => row.id)],
    );
    const byCollection = new Map<string, CollectionTranslation[]>();
    for (const t of translations) {
      const list = byCollection.get(t.collectionId) ?? [];
      list.push(t);
      byCollection.set(t.collectionId, list);
    }
    return rows.map((row) => new Collection({ ...row, translations: byCollection.get(row.id) ?? [] }));
  }
}

/** The unique (helpdesk, shortId) rule, as the domain's conflict. */
function shortIdTaken(error: unknown, shortId: string): never {
  if (isUniqueViolation(error, 'collections_short_id_key')) throw new ConflictError(`shortId ${shortId} is already taken`);
  throw error;
}

/** FOR UPDATE to change the row; FOR SHARE to keep it from being deleted while something is put in it. */
function lockClause(options: FindOptions): string {
  if (options.forUpdate) return ' FOR UPDATE';
  if (options.forShare) return ' FOR SHARE';
  return '';
}
