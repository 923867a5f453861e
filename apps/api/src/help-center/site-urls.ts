import type { SiteLocale } from '#content';

/**
 * The site's URLs for one request: paths (`/fr/articles/{slug}`) for links inside the pages, so they work at whatever
 * address the page was opened, and absolute URLs under PUBLIC_URL for what leaves the page (canonical, alternates,
 * Open Graph, JSON-LD, sitemap, feed). PUBLIC_URL's own path, if it has one, prefixes every path.
 */
export class SiteUrls {
  private readonly origin: string;
  private readonly base: string;

  constructor(
    publicUrl: string,
    readonly locale: SiteLocale,
  ) {
    const url = new URL(publicUrl);
    this.origin = url.origin;
    this.base = url.pathname.replace(/\/+$/, '');
  }

  /** The path prefix of a language: none for the default language, `/fr` for another. */
  private prefix(language: string): string {
    return language === this.locale.defaultLanguage ? '' : `/${encodeURIComponent(language)}`;
  }

  home(language = this.locale.requested): string {
    return `${this.base}${this.prefix(language)}/`;
  }

  section(id: string, language = this.locale.requested): string {
    return `${this.base}${this.prefix(language)}/sections/${encodeURIComponent(id)}`;
  }

  collection(shortId: string, language = this.locale.requested): string {
    return `${this.base}${this.prefix(language)}/collections/${encodeURIComponent(shortId)}`;
  }

  article(slug: string, language = this.locale.requested): string {
    return `${this.base}${this.prefix(language)}/articles/${encodeURIComponent(slug)}`;
  }

  feedbackForm(slug: string, language = this.locale.requested): string {
    return `${this.article(slug, language)}/feedback`;
  }

  search(query?: string, page = 1, language = this.locale.requested): string {
    const params = new URLSearchParams();
    if (query !== undefined) params.set('q', query);
    if (page > 1) params.set('page', String(page));
    const search = params.toString();
    return `${this.base}${this.prefix(language)}/search${search ? `?${search}` : ''}`;
  }

  feed(language = this.locale.requested): string {
    return `${this.base}${this.prefix(language)}/feed.xml`;
  }

  sitemap(): string {
    return `${this.base}/sitemap.xml`;
  }

  asset(name: string): string {
    return `${this.base}/assets/${name}`;
  }

  /** The public JSON endpoint the enhancement script posts feedback to. */
  feedbackApi(articleId: string): string {
    return `${this.base}/v1/public/articles/${encodeURIComponent(articleId)}/feedback`;
  }

  /** A path of this site as an absolute URL under PUBLIC_URL. */
  absolute(path: string): string {
    return `${this.origin}${path}`;
  }
}
