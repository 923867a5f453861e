import { Injectable } from '@nestjs/common';
import { type KeysetQuery, type KeysetSlice, readKeysetRows, TransactionHost } from '#core';
import { type FindOptions, SectionRepository } from '../application/section.repository.js';
import { Section, type SectionProps, type SectionTranslation } from '../domain/section.js';

const DEFAULT_SECTION_LOCK_ID = 724_311_102;
const NEXT_POSITION_LOCK_ID = 724_311_103;

const SECTION_COLUMNS = `s.id, s.helpdesk_id AS "helpdeskId", s.name, s.is_default AS "isDefault", s.position,
  s.created_at AS "createdAt", s.updated_at AS "updatedAt"`;
const SELECT_SECTIONS = `SELECT ${SECTION_COLUMNS} FROM sections s`;
const TRANSLATION_COLUMNS = `t.id, t.section_id AS "sectionId", t.language, t.name, t.status, t.created_at AS "createdAt", t.updated_at AS "updatedAt"`;

type SectionRow = Omit<SectionProps, 'translations'>;

@Injectable()
export class SqlSectionRepository extends SectionRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async findById(id: string, options: FindOptions = {}): Promise<Section | null> {
    const rows = await this.tx.query<SectionRow>(`${SELECT_SECTIONS} WHERE s.id = $1 LIMIT 1${lockClause(options)}`, [id]);
    return (await this.withTranslations(rows))[0] ?? null;
  }

  async findDefault(): Promise<Section | null> {
    const rows = await this.tx.query<SectionRow>(`${SELECT_SECTIONS} WHERE s.is_default LIMIT 1`);
    return (await this.withTranslations(rows))[0] ?? null;
  }

  async lockDefault(): Promise<void> {
    await this.tx.query('SELECT pg_advisory_xact_lock($1)', [DEFAULT_SECTION_LOCK_ID]);
  }

  async list(query: KeysetQuery): Promise<KeysetSlice<Section>> {
    const slice = await readKeysetRows<SectionRow>(this.tx, { select: SELECT_SECTIONS, alias: 's', columns: { position_asc: 's.position' } }, query);
    return { rows: await this.withTranslations(slice.rows), hasMore: slice.hasMore };
  }

  async lockNextPosition(): Promise<void> {
    await this.tx.query('SELECT pg_advisory_xact_lock($1)', [NEXT_POSITION_LOCK_ID]);
  }

  async nextPosition(): Promise<number> {
    const [row] = await this.tx.query<{ next: number }>('SELECT COALESCE(MAX(position) + 1, 0) AS next FROM sections');
    return Number(row?.next ?? 0);
  }

  async insert(section: Section): Promise<void> {
    const s = section.snapshot();
    await this.tx.query(
      `INSERT INTO sections (id, helpdesk_id, name, is_default, position, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [s.id, s.helpdeskId, s.name, s.isDefault, s.position, s.createdAt, s.updatedAt],
    );
    await this.saveTranslations(s.translations);
  }

  async update(section: Section): Promise<void> {
    const s = section.snapshot();
    await this.tx.query('UPDATE sections SET name = $2, is_default = $3, position = $4, updated_at = $5 WHERE id = $1', [
      s.id,
      s.name,
      s.isDefault,
      s.position,
      s.updatedAt,
    ]);
    await this.saveTranslations(s.translations);
  }

  async delete(id: string): Promise<void> {
    await this.tx.query('DELETE FROM sections WHERE id = $1', [id]);
  }

  async countCollections(id: string): Promise<number> {
    const [row] = await this.tx.query<{ count: number }>('SELECT COUNT(*)::int AS count FROM collections WHERE section_id = $1', [id]);
    return row?.count ?? 0;
  }

  /** Upsert on (section, language): two concurrent PUTs of one translation both succeed, the last one wins. */
  private async saveTranslations(translations: readonly SectionTranslation[]): Promise<void> {
    if (translations.length === 0) return;
    const column = <K extends keyof SectionTranslation>(key: K) => translations.map((t) => t[key]);
    await this.tx.query(
      `INSERT INTO section_translations (id, section_id, language, name, status, created_at, updated_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[])
       ON CONFLICT (section_id, language) DO UPDATE SET name = EXCLUDED.name, status = EXCLUDED.status, updated_at = EXCLUDED.updated_at`,
      [column('id'), column('sectionId'), column('language'), column('name'), column('status'), column('createdAt'), column('updatedAt')],
    );
  }

  /** The sections with their translations (by language), in the order of `rows`. */
  private async withTranslations(rows: readonly SectionRow[]): Promise<Section[]> {
    if (rows.length === 0) return [];
    const translations = await this.tx.query<SectionTranslation>(
      `SELECT ${TRANSLATION_COLUMNS} FROM section_translations t WHERE t.section_id = ANY($1) ORDER BY t.language`,
      [rows.map((row) => row.id)],
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
function lockClause(options: FindOptions): string {
  if (options.forUpdate) return ' FOR UPDATE';
  if (options.forShare) return ' FOR SHARE';
  return '';
}
