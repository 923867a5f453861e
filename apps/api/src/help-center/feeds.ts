import type { Feed, Sitemap } from '#content';
import { SiteUrls } from './site-urls.js';

/**
 * sitemap.xml, the Atom feed and robots.txt. The XML is built as a tree of elements and written by one function that
 * escapes every text and attribute value, as the pages' renderer does for HTML; characters XML 1.0 cannot carry
 * (control characters, unpaired surrogates) are left out.
 */

type XmlNode = XmlElement | string;

interface XmlElement {
  readonly name: string;
  readonly attrs?: Readonly<Record<string, string | undefined>>;
  readonly children?: readonly XmlNode[];
}

function el(name: string, attrs: XmlElement['attrs'], ...children: XmlNode[]): XmlElement {
  return { name, attrs, children };
}

// Allowed by XML 1.0: tab, newline, carriage return, U+0020-U+D7FF, U+E000-U+FFFD and the supplementary planes.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function xmlText(value: string): string {
  return value.replace(NOT_XML, '').replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch]!);
}

function write(node: XmlNode, out: string[]): void {
  if (typeof node === 'string') {
    out.push(xmlText(node));
    return;
  }
  out.push(`<${node.name}`);
  for (const [name, value] of Object.entries(node.attrs ?? {})) if (value !== undefined) out.push(` ${name}="${xmlText(value)}"`);
  if (!node.children || node.children.length === 0) {
    out.push('/>');
    return;
  }
  out.push('>');
  for (const child of node.children) write(child, out);
  out.push(`</${node.name}>`);
}

function xmlDocument(root: XmlElement): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  write(root, out);
  out.push('\n');
  return out.join('');
}

/** W3C datetime, as sitemaps and Atom want it. */
function iso(date: Date): string {
  return date.toISOString();
}

/**
 * Every live article in each language it is live in, with `lastmod` and its language alternates (each language's URL
 * lists them all, itself included, plus x-default), every collection, and the home page in each language.
 */
/** The most URLs one sitemap file may list (sitemaps.org); past it, /sitemap.xml is an index of numbered parts. */
export const SITEMAP_MAX_URLS = 50_000;

interface SitemapEntry {
  readonly xml: XmlElement;
  readonly lastModified: Date | null;
}

/** Every `<url>` of the site: the home page and each collection in every language, each live article in its languages. */
function sitemapEntries(sitemap: Sitemap, publicUrl: string): SitemapEntry[] {
  const urls = new SiteUrls(publicUrl, sitemap.locale);
  const { languages, defaultLanguage } = sitemap.locale;
  const alternatesOf = (pathIn: (language: string) => string, among: readonly string[]): XmlElement[] =>
    among.length < 2
      ? []
      : [
          ...among.map((language) => el('xhtml:link', { rel: 'alternate', hreflang: language, href: urls.absolute(pathIn(language)) })),
          el('xhtml:link', { rel: 'alternate', hreflang: 'x-default', href: urls.absolute(pathIn(defaultLanguage)) }),
        ];
  const entries = (pathIn: (language: string) => string, among: readonly string[], lastModified: Date | null): SitemapEntry[] =>
    among.map((language) => ({
      xml: el('url', undefined, el('loc', undefined, urls.absolute(pathIn(language))), ...(lastModified ? [el('lastmod', undefined, iso(lastModified))] : []), ...alternatesOf(pathIn, among)),
      lastModified,
    }));
  return [
    ...entries((language) => urls.home(language), languages, lastModifiedOf(sitemap)),
    ...sitemap.collections.flatMap((collection) => entries((language) => urls.collection(collection.shortId, language), languages, collection.lastModified)),
    ...sitemap.articles.flatMap((article) => entries((language) => urls.article(article.slug, language), article.languages, article.lastModified)),
  ];
}

function urlSet(entries: readonly SitemapEntry[]): string {
  return xmlDocument(el('urlset', { xmlns: 'http://www.sitemaps.org/schemas/sitemap/0.9', 'xmlns:xhtml': 'http://www.w3.org/1999/xhtml' }, ...entries.map((entry) => entry.xml)));
}

function newestOf(entries: readonly SitemapEntry[]): Date | null {
  let newest: Date | null = null;
  for (const { lastModified } of entries) if (lastModified && (newest === null || lastModified > newest)) newest = lastModified;
  return newest;
}

/**
 * `/sitemap.xml`: every URL of the site when they are at most `maxUrls`; otherwise a sitemap index of the parts
 * `/sitemaps/1.xml`, `/sitemaps/2.xml`, … of `maxUrls` URLs each (in a stable order: home, collections, articles
 * oldest first), each with the newest change it lists.
 */
export function sitemapXml(sitemap: Sitemap, publicUrl: string, maxUrls = SITEMAP_MAX_URLS): string {
  const entries = sitemapEntries(sitemap, publicUrl);
  if (entries.length <= maxUrls) return urlSet(entries);
  const urls = new SiteUrls(publicUrl, sitemap.locale);
  const parts: XmlElement[] = [];
  for (let start = 0, n = 1; start < entries.length; start += maxUrls, n += 1) {
    const newest = newestOf(entries.slice(start, start + maxUrls));
    parts.push(el('sitemap', undefined, el('loc', undefined, urls.absolute(`/sitemaps/${n}.xml`)), ...(newest ? [el('lastmod', undefined, iso(newest))] : [])));
  }
  return xmlDocument(el('sitemapindex', { xmlns: 'http://www.sitemaps.org/schemas/sitemap/0.9' }, ...parts));
}

/** Part `n` (from 1) of a sitemap too large for one file; null when there is no such part (or one file holds it all). */
export function sitemapPartXml(sitemap: Sitemap, publicUrl: string, n: number, maxUrls = SITEMAP_MAX_URLS): string | null {
  const entries = sitemapEntries(sitemap, publicUrl);
  if (entries.length <= maxUrls || n < 1 || (n - 1) * maxUrls >= entries.length) return null;
  return urlSet(entries.slice((n - 1) * maxUrls, n * maxUrls));
}

/** The newest change the sitemap lists (its Last-Modified); null when it lists nothing with a date. */
export function lastModifiedOf(sitemap: Sitemap): Date | null {
  let newest: Date | null = null;
  for (const entry of [...sitemap.articles, ...sitemap.collections]) if (newest === null || entry.lastModified > newest) newest = entry.lastModified;
  return newest;
}

/** The Atom feed of recently published articles in one language (an entry in another language says so). */
export function atomFeed(feed: Feed, publicUrl: string): string {
  const urls = new SiteUrls(publicUrl, feed.locale);
  const language = feed.locale.requested;
  const self = urls.absolute(urls.feed());
  return xmlDocument(
    el(
      'feed',
      { xmlns: 'http://www.w3.org/2005/Atom', 'xml:lang': language },
      el('title', undefined, feed.branding.name),
      el('id', undefined, self),
      el('updated', undefined, iso(feed.lastModified)),
      el('link', { rel: 'self', type: 'application/atom+xml', href: self }),
      el('link', { rel: 'alternate', type: 'text/html', hreflang: language, href: urls.absolute(urls.home()) }),
      el('author', undefined, el('name', undefined, feed.branding.name)),
      ...feed.articles.map((article) => {
        const href = urls.absolute(urls.article(article.slug, article.language));
        return el(
          'entry',
          article.language === language ? undefined : { 'xml:lang': article.language },
          el('title', undefined, article.title),
          el('link', { rel: 'alternate', type: 'text/html', hreflang: article.language, href }),
          el('id', undefined, href),
          el('published', undefined, iso(article.publishedAt)),
          el('updated', undefined, iso(article.updatedAt)),
          ...(article.summary ? [el('summary', undefined, article.summary)] : []),
        );
      }),
    ),
  );
}

/** robots.txt: everything but search results and the JSON API, and where the sitemap is. */
export function robotsTxt(publicUrl: string): string {
  const url = new URL(publicUrl);
  const base = url.pathname.replace(/\/+$/, '');
  return [
    'User-agent: *',
    `Allow: ${base}/`,
    `Disallow: ${base}/search`,
    `Disallow: ${base}/*/search`,
    `Disallow: ${base}/v1/`,
    '',
    `Sitemap: ${url.origin}${base}/sitemap.xml`,
    '',
  ].join('\n');
}
