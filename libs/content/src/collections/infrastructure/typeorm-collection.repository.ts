import { Injectable } from '@nestjs/common';
import { ConflictError, isUniqueViolation, type KeysetQuery, type KeysetSlice, readKeysetRows, selectColumns, TransactionHost } from '#core';
import { type CollectionFilter, CollectionRepository, type FindOptions } from '../application/collection.repository.js';
import { Collection, type CollectionTranslation } from '../domain/collection.js';
import { CollectionOrmEntity, CollectionTranslationOrmEntity } from './collection.orm-entity.js';

const TREE_LOCK_ID = 724_311_101;

@Injectable()
export class TypeOrmCollectionRepository extends CollectionRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  private get collections() {
    return this.tx.manager.getRepository(CollectionOrmEntity);
  }

  private get translations() {
    return this.tx.manager.getRepository(CollectionTranslationOrmEntity);
  }

  async findById(id: string, options: FindOptions = {}): Promise<Collection | null> {
    const row = await this.collections.findOne({ where: { id }, ...lockOf(options) });
    return row ? (await this.hydrate([row]))[0]! : null;
  }

  async list(query: KeysetQuery, filter: CollectionFilter): Promise<KeysetSlice<Collection>> {
    const manager = this.tx.manager;
    const slice = await readKeysetRows<CollectionOrmEntity>(
      this.tx,
      {
        select: selectColumns(manager, CollectionOrmEntity, 'c'),
        alias: 'c',
        conditions: filter.sectionId !== undefined ? ['c.section_id = $1'] : [],
        params: filter.sectionId !== undefined ? [filter.sectionId] : [],
        columns: { created_desc: 'c.created_at' },
      },
      query,
    );
    return { rows: await this.hydrate(slice.rows), hasMore: slice.hasMore };
  }

  async shortIdExists(shortId: string): Promise<boolean> {
    return (await this.collections.countBy({ shortId })) > 0;
  }

  async insert(collection: Collection): Promise<void> {
    const { translations, ...fields } = collection.snapshot();
    await this.guardShortId(collection.shortId, () => this.collections.insert(fields));
    await this.saveTranslations(translations);
  }

  async update(collection: Collection): Promise<void> {
    const { translations, id, helpdeskId: _helpdeskId, createdAt: _createdAt, ...fields } = collection.snapshot();
    await this.guardShortId(collection.shortId, () => this.collections.update({ id }, fields));
    await this.saveTranslations(translations);
  }

  async delete(id: string): Promise<void> {
    await this.collections.delete({ id });
  }

  countChildren(id: string): Promise<number> {
    return this.collections.countBy({ parentCollectionId: id });
  }

  async lineage(id: string): Promise<string[]> {
    const rows = (await this.tx.manager.query(
      `WITH RECURSIVE up(id, parent_collection_id, depth) AS (
         SELECT id, parent_collection_id, 0 FROM collections WHERE id = $1
         UNION ALL
         SELECT c.id, c.parent_collection_id, up.depth + 1 FROM collections c JOIN up ON c.id = up.parent_collection_id
         WHERE up.depth < 1000
       ) SELECT id FROM up ORDER BY depth`,
      [id],
    )) as Array<{ id: string }>;
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
    await this.tx.manager.query('SELECT pg_advisory_xact_lock($1)', [TREE_LOCK_ID]);
  }

  private async guardShortId(shortId: string, write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (isUniqueViolation(error, 'collections_short_id_key')) throw new ConflictError(`shortId ${shortId} is already taken`);
      throw error;
    }
  }

  private async saveTranslations(translations: readonly CollectionTranslation[]): Promise<void> {
    if (translations.length === 0) return;
    await this.translations
      .createQueryBuilder()
      .insert()
      .values(translations.map((t) => ({ ...t })))
      .orUpdate(['title', 'subtitle', 'status', 'updated_at'], ['collection_id', 'language'])
      .execute();
  }

  private async hydrate(rows: CollectionOrmEntity[]): Promise<Collection[]> {
    if (rows.length === 0) return [];
    const manager = this.tx.manager;
    const translations = await this.tx.query<CollectionTranslationOrmEntity>(
      `${selectColumns(manager, CollectionTranslationOrmEntity, 't')} WHERE t.collection_id = ANY($1) ORDER BY t.language`,
      [rows.map((r) => r.id)],
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

/** FOR UPDATE to change the row; FOR SHARE to keep it from being deleted while something is put in it. */
function lockOf(options: FindOptions): { lock?: { mode: 'pessimistic_write' | 'pessimistic_read' } } {
  if (options.forUpdate) return { lock: { mode: 'pessimistic_write' } };
  if (options.forShare) return { lock: { mode: 'pessimistic_read' } };
  return {};
}
