import type { ComponentChildren } from 'preact';
import { languageName } from '../i18n/ui-strings.js';
import type { PageContext } from './page-context.js';

/** A link to the same page in another enabled language (the language switcher and the hreflang alternates). */
export interface LanguageLink {
  readonly language: string;
  /** The page's path in that language. */
  readonly href: string;
}

/** What the <head> says about a page: title, description, canonical URL, alternates, sharing cards, structured data. */
export interface PageMeta {
  /** The whole <title>. */
  readonly title: string;
  readonly description?: string | null;
  readonly keywords?: string | null;
  /** Absolute. */
  readonly canonical?: string;
  /** Absolute URLs of the page in each language it exists in; an `x-default` entry is added for the default language. */
  readonly alternates?: readonly LanguageLink[];
  readonly openGraph?: {
    readonly type: 'website' | 'article';
    readonly title: string;
    readonly image?: string | null;
    readonly publishedTime?: Date;
    readonly modifiedTime?: Date;
  };
  /** schema.org objects, each written as one <script type="application/ld+json">. */
  readonly jsonLd?: readonly object[];
  /** Search results and error pages are not for search engines. */
  readonly noindex?: boolean;
}

const RTL = new Set(['ar', 'fa', 'he', 'ps', 'ur', 'yi', 'dv', 'ckb', 'sd', 'ug']);

export function directionOf(language: string): 'rtl' | 'ltr' {
  return RTL.has(language.split('-')[0]!) ? 'rtl' : 'ltr';
}

/**
 * JSON for a <script type="application/ld+json"> block. The block's text is not HTML-escaped (entities are not
 * decoded inside <script>), so every `<`, `>` and `&` is written as a JSON escape (\u003c…) instead: no `</script>`
 * or comment opener can appear in it, whatever the titles hold, and the JSON still reads the same.
 */
export function jsonLdText(data: object): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Only web and mail links from the branding reach a page (the API accepts nothing else; this holds if it ever did). */
export function isSafeLink(url: string, schemes: RegExp = /^(https?:|mailto:)/i): boolean {
  return schemes.test(url);
}

function ogLocale(language: string): string {
  return language.replace('-', '_');
}

function Head({ context, meta }: { context: PageContext; meta: PageMeta }) {
  const { branding, locale, urls } = context;
  const og = meta.openGraph;
  const description = meta.description ?? undefined;
  const image = og?.image ?? (branding.logoUrl && isSafeLink(branding.logoUrl, /^https?:/i) ? branding.logoUrl : null);
  const defaultAlternate = meta.alternates?.find((alternate) => alternate.language === locale.defaultLanguage);
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{meta.title}</title>
      {description ? <meta name="description" content={description} /> : null}
      {meta.keywords ? <meta name="keywords" content={meta.keywords} /> : null}
      {meta.noindex ? <meta name="robots" content="noindex" /> : null}
      {meta.canonical ? <link rel="canonical" href={meta.canonical} /> : null}
      {(meta.alternates ?? []).map((alternate) => (
        <link rel="alternate" hreflang={alternate.language} href={alternate.href} />
      ))}
      {defaultAlternate ? <link rel="alternate" hreflang="x-default" href={defaultAlternate.href} /> : null}
      <link rel="alternate" type="application/atom+xml" title={branding.name} href={urls.feed()} />
      {og ? (
        <>
          <meta property="og:type" content={og.type} />
          <meta property="og:site_name" content={branding.name} />
          <meta property="og:title" content={og.title} />
          {description ? <meta property="og:description" content={description} /> : null}
          {meta.canonical ? <meta property="og:url" content={meta.canonical} /> : null}
          <meta property="og:locale" content={ogLocale(locale.requested)} />
          {image ? <meta property="og:image" content={image} /> : null}
          {og.publishedTime ? <meta property="article:published_time" content={og.publishedTime.toISOString()} /> : null}
          {og.modifiedTime ? <meta property="article:modified_time" content={og.modifiedTime.toISOString()} /> : null}
          <meta name="twitter:card" content={og.image ? 'summary_large_image' : 'summary'} />
          <meta name="twitter:title" content={og.title} />
          {description ? <meta name="twitter:description" content={description} /> : null}
          {image ? <meta name="twitter:image" content={image} /> : null}
        </>
      ) : null}
      <link rel="icon" href="data:," />
      {context.stylesheets.map((href) => (
        <link rel="stylesheet" href={href} />
      ))}
      <script src={context.script} defer />
      {(meta.jsonLd ?? []).map((data) => (
        <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(data) }} />
      ))}
    </head>
  );
}

function Header({ context, languages, query }: { context: PageContext; languages: readonly LanguageLink[]; query?: string }) {
  const { branding, locale, urls, t, uiLang } = context;
  const logo = branding.logoUrl && isSafeLink(branding.logoUrl, /^https?:/i) ? branding.logoUrl : null;
  return (
    <header id="header" class="site-header" lang={uiLang}>
      <div class="wrap">
        <div class="header-bar">
          <a class="brand" href={urls.home()}>
            {logo ? <img src={logo} alt="" /> : null}
            <span>{branding.name}</span>
          </a>
          {languages.length > 1 ? (
            <nav id="language" class="languages" aria-label={t.languageNav}>
              <ul>
                {languages.map((link) => (
                  <li>
                    <a href={link.href} hreflang={link.language} lang={link.language} aria-current={link.language === locale.requested ? 'true' : undefined}>
                      {languageName(link.language)}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
        </div>
        <form id="search" class="search-form" role="search" action={urls.search()} method="get">
          <label>
            <span class="visually-hidden">{t.searchLabel}</span>
            <input type="search" name="q" value={query ?? ''} placeholder={t.searchPlaceholder} autocomplete="off" maxlength={200} enterkeyhint="search" />
          </label>
          <button type="submit">{t.searchButton}</button>
        </form>
      </div>
    </header>
  );
}

function Footer({ context }: { context: PageContext }) {
  const { branding, urls, t, uiLang } = context;
  const links = branding.footerLinks.filter((link) => isSafeLink(link.url));
  return (
    <footer id="footer" class="site-footer" lang={uiLang}>
      <div class="wrap">
        {links.length > 0 ? (
          <ul>
            {links.map((link) => (
              <li>
                <a href={link.url}>{link.label}</a>
              </li>
            ))}
          </ul>
        ) : null}
        <p>
          <a href={urls.feed()}>{t.feed}</a>
        </p>
      </div>
    </footer>
  );
}

/** The page frame: head, skip link, header (name, language switcher, search), main, footer. */
export function Layout(props: { context: PageContext; meta: PageMeta; languages: readonly LanguageLink[]; query?: string; children: ComponentChildren }) {
  const { context } = props;
  const language = context.locale.requested;
  return (
    <html lang={language} dir={directionOf(language)}>
      <Head context={context} meta={props.meta} />
      <body>
        <a class="skip-link" href="#main" lang={context.uiLang}>
          {context.t.skipToContent}
        </a>
        <Header context={context} languages={props.languages} query={props.query} />
        <main id="main" tabindex={-1}>
          <div class="wrap">{props.children}</div>
        </main>
        <Footer context={context} />
      </body>
    </html>
  );
}
