import { randomInt } from 'node:crypto';
import { newId, ValidationError } from '#core/domain';
import type { TranslationStatus } from '../../shared/domain/translation.js';

export interface CollectionTranslation {
  readonly id: string;
  readonly collectionId: string;
  readonly language: string;
  readonly title: string;
  readonly subtitle: string | null;
  readonly status: TranslationStatus;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface CollectionProps {
  readonly id: string;
  readonly helpdeskId: string;
  sectionId: string | null;
  parentCollectionId: string | null;
  title: string;
  subtitle: string | null;
  shortId: string;
  readonly createdAt: Date;
  updatedAt: Date;
  translations: CollectionTranslation[];
}

const SHORT_ID_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';
export const SHORT_ID_PATTERN = /^[a-z0-9][a-z0-9-]{1,63}$/;

/** A short, unambiguous identifier (no 0/o, 1/l/i) for URLs and support conversations. */
export function generateShortId(length = 7): string {
  let id = '';
  for (let i = 0; i < length; i++) id += SHORT_ID_ALPHABET[randomInt(SHORT_ID_ALPHABET.length)];
  return id;
}

/**
 * A group of articles, in a section, optionally nested under another collection. A nested collection
 * always lives in its parent's section; the tree has no cycles (checked by the use case, which sees the tree).
 */
export class Collection {
  constructor(private readonly props: CollectionProps) {}

  static create(
    input: { helpdeskId: string; title: string; subtitle: string | null; shortId: string; sectionId: string | null; parentCollectionId: string | null },
    at: Date,
  ): Collection {
    Collection.checkShortId(input.shortId);
    return new Collection({ id: newId('col'), ...input, createdAt: at, updatedAt: at, translations: [] });
  }

  get id(): string {
    return this.props.id;
  }

  get sectionId(): string | null {
    return this.props.sectionId;
  }

  get parentCollectionId(): string | null {
    return this.props.parentCollectionId;
  }

  get shortId(): string {
    return this.props.shortId;
  }

  snapshot(): Readonly<CollectionProps> {
    return { ...this.props, translations: [...this.props.translations] };
  }

  update(changes: { title?: string; subtitle?: string | null; shortId?: string }, at: Date): void {
    if (changes.shortId !== undefined) Collection.checkShortId(changes.shortId);
    if (changes.title !== undefined) this.props.title = changes.title;
    if (changes.subtitle !== undefined) this.props.subtitle = changes.subtitle;
    if (changes.shortId !== undefined) this.props.shortId = changes.shortId;
    this.props.updatedAt = at;
  }

  moveTo(sectionId: string | null, parentCollectionId: string | null, at: Date): void {
    if (parentCollectionId === this.props.id) throw ValidationError.field('parent_collection_id', 'A collection cannot be its own parent');
    this.props.sectionId = sectionId;
    this.props.parentCollectionId = parentCollectionId;
    this.props.updatedAt = at;
  }

  putTranslation(
    language: string,
    fields: { title: string; subtitle: string | null; status: TranslationStatus },
    at: Date,
  ): { translation: CollectionTranslation; created: boolean } {
    const index = this.props.translations.findIndex((t) => t.language === language);
    const existing = this.props.translations[index];
    const translation: CollectionTranslation = {
      id: existing?.id ?? newId('coltr'),
      collectionId: this.props.id,
      language,
      ...fields,
      createdAt: existing?.createdAt ?? at,
      updatedAt: at,
    };
    if (existing) this.props.translations[index] = translation;
    else this.props.translations.push(translation);
    return { translation, created: !existing };
  }

  private static checkShortId(shortId: string): void {
    if (!SHORT_ID_PATTERN.test(shortId)) {
      throw ValidationError.field('shortId', 'shortId must be 2-64 lowercase letters, digits or dashes, starting with a letter or digit');
    }
  }
}
