import { Injectable } from '@nestjs/common';
import { type KeysetQuery, type KeysetSlice, readKeysetRows, selectColumns, TransactionHost } from '#core';
import { type FindOptions, SectionRepository } from '../application/section.repository.js';
import { Section, type SectionTranslation } from '../domain/section.js';
import { SectionOrmEntity, SectionTranslationOrmEntity } from './section.orm-entity.js';

const DEFAULT_SECTION_LOCK_ID = 724_311_102;

@Injectable()
export class TypeOrmSectionRepository extends SectionRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  private get sections() {
    return this.tx.manager.getRepository(SectionOrmEntity);
  }

  private get translations() {
    return this.tx.manager.getRepository(SectionTranslationOrmEntity);
  }

  async findById(id: string, options: FindOptions = {}): Promise<Section | null> {
    const row = await this.sections.findOne({ where: { id }, ...lockOf(options) });
    return row ? (await this.hydrate([row]))[0]! : null;
  }

  async findDefault(): Promise<Section | null> {
    const row = await this.sections.findOneBy({ isDefault: true });
    return row ? (await this.hydrate([row]))[0]! : null;
  }

  async lockDefault(): Promise<void> {
    await this.tx.manager.query('SELECT pg_advisory_xact_lock($1)', [DEFAULT_SECTION_LOCK_ID]);
  }

  async list(query: KeysetQuery): Promise<KeysetSlice<Section>> {
    const manager = this.tx.manager;
    const slice = await readKeysetRows<SectionOrmEntity>(
      this.tx,
      { select: selectColumns(manager, SectionOrmEntity, 's'), alias: 's', columns: { position_asc: 's.position' } },
      query,
    );
    return { rows: await this.hydrate(slice.rows), hasMore: slice.hasMore };
  }

  async nextPosition(): Promise<number> {
    const [row] = (await this.tx.manager.query('SELECT COALESCE(MAX(position) + 1, 0) AS next FROM sections')) as Array<{ next: number }>;
    return Number(row?.next ?? 0);
  }

  async insert(section: Section): Promise<void> {
    const { translations, ...fields } = section.snapshot();
    await this.sections.insert(fields);
    await this.saveTranslations(translations);
  }

  async update(section: Section): Promise<void> {
    const { translations, id, ...fields } = section.snapshot();
    await this.sections.update({ id }, { name: fields.name, isDefault: fields.isDefault, position: fields.position, updatedAt: fields.updatedAt });
    await this.saveTranslations(translations);
  }

  async delete(id: string): Promise<void> {
    await this.sections.delete({ id });
  }

  countCollections(id: string): Promise<number> {
    return this.tx.manager
      .query('SELECT COUNT(*)::int AS count FROM collections WHERE section_id = $1', [id])
      .then((rows: Array<{ count: number }>) => rows[0]?.count ?? 0);
  }

  /** Upsert on (section, language): two concurrent PUTs of one translation both succeed, the last one wins. */
  private async saveTranslations(translations: readonly SectionTranslation[]): Promise<void> {
    if (translations.length === 0) return;
    await this.translations
      .createQueryBuilder()
      .insert()
      .values(translations.map((t) => ({ ...t })))
      .orUpdate(['name', 'status', 'updated_at'], ['section_id', 'language'])
      .execute();
  }

  private async hydrate(rows: SectionOrmEntity[]): Promise<Section[]> {
    if (rows.length === 0) return [];
    const manager = this.tx.manager;
    const translations = await this.tx.query<SectionTranslationOrmEntity>(
      `${selectColumns(manager, SectionTranslationOrmEntity, 't')} WHERE t.section_id = ANY($1) ORDER BY t.language`,
      [rows.map((r) => r.id)],
    );
    const bySection = new Map<string, SectionTranslation[]>();
    for (const t of translations) {
      const list = bySection.get(t.sectionId) ?? [];
      list.push(t);
      bySection.set(t.sectionId, list);
    }
    return rows.map((row) => new Section({ ...row, translations: bySection.get(row.id) ?? [] }));
  }
}

/** FOR UPDATE to change the row; FOR SHARE to keep it from being deleted while something is put in it. */
function lockOf(options: FindOptions): { lock?: { mode: 'pessimistic_write' | 'pessimistic_read' } } {
  if (options.forUpdate) return { lock: { mode: 'pessimistic_write' } };
  if (options.forShare) return { lock: { mode: 'pessimistic_read' } };
  return {};
}
