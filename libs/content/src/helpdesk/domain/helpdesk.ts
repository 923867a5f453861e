import { newId, ValidationError } from '#core/domain';
import { assertLanguageCode } from '../../shared/domain/language.js';

export interface HelpdeskProps {
  readonly id: string;
  name: string;
  readonly defaultLanguage: string;
  languages: string[];
  readonly createdAt: Date;
  updatedAt: Date;
}

export const DEFAULT_HELPDESK_NAME = 'Help Center';

/** The one helpdesk of a deployment: its name and the languages content may be translated into. */
export class Helpdesk {
  constructor(private readonly props: HelpdeskProps) {}

  static create(languages: readonly string[], at: Date): Helpdesk {
    const unique = Helpdesk.checkLanguages(languages);
    return new Helpdesk({
      id: newId('help'),
      name: DEFAULT_HELPDESK_NAME,
      defaultLanguage: unique[0]!,
      languages: unique,
      createdAt: at,
      updatedAt: at,
    });
  }

  get id(): string {
    return this.props.id;
  }

  get name(): string {
    return this.props.name;
  }

  get defaultLanguage(): string {
    return this.props.defaultLanguage;
  }

  get languages(): readonly string[] {
    return this.props.languages;
  }

  get createdAt(): Date {
    return this.props.createdAt;
  }

  get updatedAt(): Date {
    return this.props.updatedAt;
  }

  snapshot(): Readonly<HelpdeskProps> {
    return { ...this.props, languages: [...this.props.languages] };
  }

  update(changes: { name?: string; languages?: readonly string[] }, at: Date): void {
    // Everything is checked before anything is applied: a refused update leaves the helpdesk as it was.
    const name = changes.name?.trim();
    if (name !== undefined && name.length === 0) throw ValidationError.field('name', 'name must not be empty');
    let languages: string[] | undefined;
    if (changes.languages !== undefined) {
      languages = Helpdesk.checkLanguages(changes.languages);
      if (!languages.includes(this.props.defaultLanguage)) {
        throw ValidationError.field('languages', `languages must include the default language ${this.props.defaultLanguage}`);
      }
      // The default language stays first.
      languages = [this.props.defaultLanguage, ...languages.filter((l) => l !== this.props.defaultLanguage)];
    }
    if (name !== undefined) this.props.name = name;
    if (languages !== undefined) this.props.languages = languages;
    this.props.updatedAt = at;
  }

  /** A language content can be translated into: enabled, and not the default one (that is the content itself). */
  assertTranslationLanguage(language: string): void {
    if (language === this.props.defaultLanguage) {
      throw ValidationError.field('language', `${language} is the default language; edit the resource itself instead`);
    }
    if (!this.props.languages.includes(language)) {
      throw ValidationError.field('language', `${language} is not enabled for this helpdesk (enabled: ${this.props.languages.join(', ')})`);
    }
  }

  private static checkLanguages(languages: readonly string[]): string[] {
    if (languages.length === 0) throw ValidationError.field('languages', 'languages must not be empty');
    for (const language of languages) assertLanguageCode(language, 'languages');
    return [...new Set(languages)];
  }
}
