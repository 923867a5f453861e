import { InvalidStateError, newId } from '#core/domain';
import type { TranslationStatus } from '../../shared/domain/translation.js';

export interface SectionTranslation {
  readonly id: string;
  readonly sectionId: string;
  readonly language: string;
  readonly name: string;
  readonly status: TranslationStatus;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface SectionProps {
  readonly id: string;
  readonly helpdeskId: string;
  name: string;
  isDefault: boolean;
  position: number;
  readonly createdAt: Date;
  updatedAt: Date;
  translations: SectionTranslation[];
}

export const DEFAULT_SECTION_NAME = 'General';

/** A top-level grouping of the help center. Exactly one section is the default. */
export class Section {
  constructor(private readonly props: SectionProps) {}

  static create(input: { helpdeskId: string; name: string; position: number; isDefault?: boolean }, at: Date): Section {
    return new Section({
      id: newId('sect'),
      helpdeskId: input.helpdeskId,
      name: input.name,
      isDefault: input.isDefault ?? false,
      position: input.position,
      createdAt: at,
      updatedAt: at,
      translations: [],
    });
  }

  get id(): string {
    return this.props.id;
  }

  get isDefault(): boolean {
    return this.props.isDefault;
  }

  snapshot(): Readonly<SectionProps> {
    return { ...this.props, translations: [...this.props.translations] };
  }

  update(changes: { name?: string; position?: number; isDefault?: boolean }, at: Date): void {
    if (changes.isDefault === false && this.props.isDefault) {
      throw new InvalidStateError('A helpdesk needs a default section: make another section the default instead');
    }
    if (changes.name !== undefined) this.props.name = changes.name;
    if (changes.position !== undefined) this.props.position = changes.position;
    if (changes.isDefault === true) this.props.isDefault = true;
    this.props.updatedAt = at;
  }

  /** Called when another section becomes the default. */
  clearDefault(at: Date): void {
    this.props.isDefault = false;
    this.props.updatedAt = at;
  }

  assertDeletable(contents: { collections: number; articles: number }): void {
    if (this.props.isDefault) throw new InvalidStateError('The default section cannot be deleted');
    if (contents.collections > 0 || contents.articles > 0) {
      throw new InvalidStateError(
        `Section ${this.props.id} is not empty (${contents.collections} collection(s), ${contents.articles} article(s)); move or delete them first`,
      );
    }
  }

  /** Creates or replaces the translation into `language`; `created` tells which. */
  putTranslation(language: string, fields: { name: string; status: TranslationStatus }, at: Date): { translation: SectionTranslation; created: boolean } {
    const index = this.props.translations.findIndex((t) => t.language === language);
    const existing = this.props.translations[index];
    const translation: SectionTranslation = {
      id: existing?.id ?? newId('sectr'),
      sectionId: this.props.id,
      language,
      name: fields.name,
      status: fields.status,
      createdAt: existing?.createdAt ?? at,
      updatedAt: at,
    };
    if (existing) this.props.translations[index] = translation;
    else this.props.translations.push(translation);
    return { translation, created: !existing };
  }
}
