import type { SiteBranding, SiteLocale } from '#content';
import { uiStrings, type UiStrings } from '../i18n/ui-strings.js';
import { SCRIPT_NAME, STYLESHEET_NAME, themeStylesheetName } from '../site-assets.js';
import { SiteUrls } from '../site-urls.js';

/** What every view of one request needs: the helpdesk's branding, the languages, URLs, the interface strings. */
export interface PageContext {
  readonly branding: SiteBranding;
  readonly locale: SiteLocale;
  readonly urls: SiteUrls;
  readonly t: UiStrings;
  /**
   * The language of the interface strings when it is not the page's (a page in `ja` with English strings): the
   * elements holding them carry it as `lang`. Undefined when they match.
   */
  readonly uiLang: string | undefined;
  readonly stylesheets: readonly string[];
  readonly script: string;
}

export function pageContext(branding: SiteBranding, locale: SiteLocale, publicUrl: string): PageContext {
  const urls = new SiteUrls(publicUrl, locale);
  const t = uiStrings(locale.requested);
  return {
    branding,
    locale,
    urls,
    t,
    uiLang: t.language === locale.requested ? undefined : t.language,
    stylesheets: [urls.asset(STYLESHEET_NAME), urls.asset(themeStylesheetName(branding.accentColor))],
    script: urls.asset(SCRIPT_NAME),
  };
}

/** `lang` for a text shown in `language` inside a page in another language; undefined when they match. */
export function langOf(context: PageContext, language: string): string | undefined {
  return language === context.locale.requested ? undefined : language;
}
