import { newId, ValidationError } from '#core/domain';
import { assertLanguageCode } from '../../shared/domain/language.js';

/** A link in the public help center's footer. */
export interface FooterLink {
  readonly label: string;
  /** http(s) or mailto. */
  readonly url: string;
}

/** How the public help center looks: its logo, accent colour and footer links (its name is the helpdesk's). */
export interface HelpdeskBranding {
  /** An absolute http(s) URL, or null (the name is shown instead). */
  logoUrl: string | null;
  /** `#rrggbb` (lowercase), or null for the pages' default accent. */
  accentColor: string | null;
  footerLinks: FooterLink[];
}

export interface HelpdeskProps extends HelpdeskBranding {
  readonly id: string;
  name: string;
  readonly defaultLanguage: string;
  languages: string[];
  readonly createdAt: Date;
  updatedAt: Date;
}

export const DEFAULT_HELPDESK_NAME = 'Help Center';

export const MAX_FOOTER_LINKS = 10;
export const MAX_FOOTER_LABEL_LENGTH = 60;
export const MAX_BRANDING_URL_LENGTH = 2048;
const ACCENT_COLOR = /^#[0-9a-fA-F]{6}$/;

export interface HelpdeskChanges extends Partial<HelpdeskBranding> {
  readonly name?: string;
  readonly languages?: readonly string[];
}

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
      logoUrl: null,
      accentColor: null,
      footerLinks: [],
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

  get logoUrl(): string | null {
    return this.props.logoUrl;
  }

  get accentColor(): string | null {
    return this.props.accentColor;
  }

  get footerLinks(): readonly FooterLink[] {
    return this.props.footerLinks;
  }

  get createdAt(): Date {
    return this.props.createdAt;
  }

  get updatedAt(): Date {
    return this.props.updatedAt;
  }

  snapshot(): Readonly<HelpdeskProps> {
    return { ...this.props, languages: [...this.props.languages], footerLinks: this.props.footerLinks.map((link) => ({ ...link })) };
  }

  update(changes: HelpdeskChanges, at: Date): void {
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
    const logoUrl = changes.logoUrl === undefined || changes.logoUrl === null ? changes.logoUrl : checkUrl(changes.logoUrl, 'logoUrl', ['http:', 'https:']);
    let accentColor = changes.accentColor;
    if (accentColor !== undefined && accentColor !== null) {
      if (typeof accentColor !== 'string' || !ACCENT_COLOR.test(accentColor)) throw ValidationError.field('accentColor', 'accentColor must be a colour #rrggbb, or null');
      accentColor = accentColor.toLowerCase();
    }
    const footerLinks = changes.footerLinks === undefined ? undefined : checkFooterLinks(changes.footerLinks);
    if (name !== undefined) this.props.name = name;
    if (languages !== undefined) this.props.languages = languages;
    if (logoUrl !== undefined) this.props.logoUrl = logoUrl;
    if (accentColor !== undefined) this.props.accentColor = accentColor;
    if (footerLinks !== undefined) this.props.footerLinks = footerLinks;
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

/** A URL shown on every public page: absolute, one of `protocols`, no credentials, at most 2048 characters. */
function checkUrl(value: string, field: string, protocols: readonly string[]): string {
  const text = typeof value === 'string' ? value.trim() : '';
  let url: URL | undefined;
  try {
    url = text.length > 0 && text.length <= MAX_BRANDING_URL_LENGTH ? new URL(text) : undefined;
  } catch {
    url = undefined;
  }
  const schemes = protocols.map((protocol) => protocol.replace(':', '')).join(' or ');
  if (!url || !protocols.includes(url.protocol) || url.username || url.password || (url.protocol !== 'mailto:' && !url.hostname)) {
    throw ValidationError.field(field, `${field} must be an absolute ${schemes} URL of at most ${MAX_BRANDING_URL_LENGTH} characters`);
  }
  return text;
}

function checkFooterLinks(links: readonly FooterLink[]): FooterLink[] {
  if (!Array.isArray(links)) throw ValidationError.field('footerLinks', 'footerLinks must be an array');
  if (links.length > MAX_FOOTER_LINKS) throw ValidationError.field('footerLinks', `footerLinks holds at most ${MAX_FOOTER_LINKS} links`);
  return links.map((link, i) => {
    const label = typeof link?.label === 'string' ? link.label.trim() : '';
    if (label.length === 0 || label.length > MAX_FOOTER_LABEL_LENGTH) {
      throw ValidationError.field(`footerLinks.${i}.label`, `a footer link's label must be 1 to ${MAX_FOOTER_LABEL_LENGTH} characters`);
    }
    return { label, url: checkUrl(link.url, `footerLinks.${i}.url`, ['http:', 'https:', 'mailto:']) };
  });
}
