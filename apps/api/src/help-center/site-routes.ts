import { RequestMethod } from '@nestjs/common';

/**
 * The public help center's routes, served at the root beside the JSON API (`/v1`), the reference (`/docs`) and the
 * stored images (`/static`). Each page answers in the default language unprefixed and in another enabled language
 * under its code (`/fr/articles/{slug}`).
 */
export const SITE_PATHS = {
  home: ['/', ':lang'],
  section: ['sections/:sectionId', ':lang/sections/:sectionId'],
  collection: ['collections/:shortId', ':lang/collections/:shortId'],
  article: ['articles/:slug', ':lang/articles/:slug'],
  feedback: ['articles/:slug/feedback', ':lang/articles/:slug/feedback'],
  search: ['search', ':lang/search'],
  feed: ['feed.xml', ':lang/feed.xml'],
  sitemap: ['sitemap.xml'],
  sitemapPart: ['sitemaps/:file'],
  robots: ['robots.txt'],
  asset: ['assets/:name'],
} satisfies Record<string, string[]>;

const POSTED: ReadonlySet<string> = new Set(SITE_PATHS.feedback);

/**
 * What a language prefix can look like (the helpdesk's language codes: `en`, `pt-BR`). A first segment of another
 * shape (`v1`, `docs`, `static`, `healthz`) is no language: the site's routes pass such a request on, so it reaches
 * the API's own routes and its JSON 404, never a help center page.
 */
const LANGUAGE_SEGMENT = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export function isLanguageSegment(value: string | undefined): value is string {
  return value !== undefined && LANGUAGE_SEGMENT.test(value);
}

/**
 * The site's routes as `setGlobalPrefix` exclusions, so they are served at the root rather than under `/v1`. Nest
 * tests an exclusion against the path a route is declared with, so each is the declared path with its parameters
 * escaped (`articles/\:slug` matches only the text `articles/:slug`): an API route such as `articles/:id` never
 * matches and keeps its `/v1` prefix.
 */
export function siteRoutesOutsideApiPrefix(): Array<{ path: string; method: RequestMethod }> {
  return Object.values(SITE_PATHS)
    .flat()
    .map((path) => ({ path: path.replace(/:/g, '\\:'), method: POSTED.has(path) ? RequestMethod.POST : RequestMethod.GET }));
}

/** The site's routes as the HTTP router lists them (`GET /{lang}/articles/{slug}`), for the route inventory tests. */
export function siteRouteList(): string[] {
  return Object.values(SITE_PATHS)
    .flat()
    .map((path) => `${POSTED.has(path) ? 'POST' : 'GET'} ${`/${path}`.replace(/^\/\//, '/').replace(/:(\w+)/g, '{$1}')}`);
}
