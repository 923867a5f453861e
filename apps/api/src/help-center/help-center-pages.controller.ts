import { Controller, Get, Next, Param, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { HttpConfig } from '#core';
import { Public } from '#gateway';
import {
  GetHelpCenterArticleUseCase,
  GetHelpCenterCollectionUseCase,
  GetHelpCenterHomeUseCase,
  GetHelpCenterSectionUseCase,
  GetHelpCenterVersionUseCase,
  SearchHelpCenterUseCase,
  type SiteBranding,
  type SiteLocale,
} from '#content';
import { HelpCenterErrorFilter } from './help-center-error.filter.js';
import { type KeptPage, PageCache } from './page-cache.js';
import { contentSecurityPolicy, PAGE_CACHE_CONTROL, sendErrorPage, sendPage, setPageSecurityHeaders } from './page-response.js';
import { isLanguageSegment, SITE_PATHS } from './site-routes.js';
import { pageContext, type PageContext } from './views/page-context.js';
import { renderPage } from './views/pages.js';

const HTML = 'text/html; charset=utf-8';

/** The first value of a query parameter as text (a repeated one, `?q=a&q=b`, counts once). */
function queryText(value: unknown): string {
  if (Array.isArray(value)) return queryText(value[0]);
  return typeof value === 'string' ? value : '';
}

/** `?page=` as a whole number from 1; anything else is page 1 (a crawler's odd link is not an error page). */
function pageNumber(value: unknown): number {
  const text = queryText(value);
  return /^[1-9][0-9]{0,5}$/.test(text) ? Number(text) : 1;
}

/**
 * The public help center's pages, at the root and under each other enabled language's prefix, without a key. Each
 * route reads its parameters, calls one use case and renders its result; a first segment that cannot be a language
 * (`/v1/…`) is passed on to the API's routes.
 */
@ApiExcludeController()
@Public()
@UseFilters(HelpCenterErrorFilter)
@Controller()
export class HelpCenterPagesController {
  private readonly csp: string;

  constructor(
    private readonly homePage: GetHelpCenterHomeUseCase,
    private readonly sectionPage: GetHelpCenterSectionUseCase,
    private readonly collectionPage: GetHelpCenterCollectionUseCase,
    private readonly articlePage: GetHelpCenterArticleUseCase,
    private readonly searchPage: SearchHelpCenterUseCase,
    private readonly version: GetHelpCenterVersionUseCase,
    private readonly cache: PageCache,
    private readonly http: HttpConfig,
  ) {
    this.csp = contentSecurityPolicy(http.staticUrl);
  }

  @Get(SITE_PATHS.home)
  async home(@Param('lang') lang: string | undefined, @Req() request: Request, @Res() response: Response, @Next() next: NextFunction): Promise<void> {
    if (!isSiteLanguage(lang)) return next();
    await this.serveKept(request, response, `home|${lang ?? ''}`, async () => {
      const page = await this.homePage.execute(lang);
      return { page, body: renderPage.home(this.context(page), page) };
    });
  }

  @Get(SITE_PATHS.section)
  async section(
    @Param('lang') lang: string | undefined,
    @Param('sectionId') sectionId: string,
    @Req() request: Request,
    @Res() response: Response,
    @Next() next: NextFunction,
  ): Promise<void> {
    if (!isSiteLanguage(lang)) return next();
    await this.serveKept(request, response, `section|${lang ?? ''}|${sectionId}`, async () => {
      const page = await this.sectionPage.execute(sectionId, lang);
      return { page, body: renderPage.section(this.context(page), page) };
    });
  }

  @Get(SITE_PATHS.collection)
  async collection(
    @Param('lang') lang: string | undefined,
    @Param('shortId') shortId: string,
    @Req() request: Request,
    @Res() response: Response,
    @Next() next: NextFunction,
  ): Promise<void> {
    if (!isSiteLanguage(lang)) return next();
    await this.serveKept(request, response, `collection|${lang ?? ''}|${shortId}`, async () => {
      const page = await this.collectionPage.execute(shortId, lang);
      return { page, body: renderPage.collection(this.context(page), page) };
    });
  }

  /** The live article; a slug it had before answers 301 to the current one; drafts, trashed and unknown slugs 404. */
  @Get(SITE_PATHS.article)
  async article(
    @Param('lang') lang: string | undefined,
    @Param('slug') slug: string,
    @Query('feedback') feedback: unknown,
    @Req() request: Request,
    @Res() response: Response,
    @Next() next: NextFunction,
  ): Promise<void> {
    if (!isSiteLanguage(lang)) return next();
    const feedbackSent = queryText(feedback) === 'sent';
    await this.serveKept(request, response, `article|${lang ?? ''}|${slug}|${feedbackSent ? 'sent' : ''}`, async () => {
      const result = await this.articlePage.execute(slug, lang);
      switch (result.kind) {
        case 'page':
          return { page: result.page, body: renderPage.article(this.context(result.page), result.page, { feedbackSent }) };
        case 'moved':
          // Revalidated like a page: should the old slug go to another article later, browsers and CDNs ask again.
          setPageSecurityHeaders(response, this.csp);
          response.setHeader('Cache-Control', PAGE_CACHE_CONTROL);
          response.redirect(301, `${this.basePath()}${lang === undefined ? '' : `/${lang}`}/articles/${encodeURIComponent(result.slug)}`);
          return null;
        case 'not_found':
          sendErrorPage(response, 404, renderPage.error(this.context(result), 'not_found'), this.csp);
          return null;
      }
    });
  }

  @Get(SITE_PATHS.search)
  async search(
    @Param('lang') lang: string | undefined,
    @Query('q') q: unknown,
    @Query('page') page: unknown,
    @Req() request: Request,
    @Res() response: Response,
    @Next() next: NextFunction,
  ): Promise<void> {
    if (!isSiteLanguage(lang)) return next();
    // Not kept: queries are as many as readers can type.
    const results = await this.searchPage.execute({ query: queryText(q), language: lang, page: pageNumber(page) });
    this.send(request, response, { body: renderPage.search(this.context(results), results), contentType: HTML, lastModified: results.lastModified, contentLanguage: results.locale.requested });
  }

  private context(page: { branding: SiteBranding; locale: SiteLocale }): PageContext {
    return pageContext(page.branding, page.locale, this.http.publicUrl);
  }

  private basePath(): string {
    return new URL(this.http.publicUrl).pathname.replace(/\/+$/, '');
  }

  /**
   * The kept pages' protocol, in one place: read the content version first, send the page kept under `key` if it
   * was rendered at that version; otherwise `render` (which reads the content after the version, so the page is
   * never older than it), keep and send the result. `render` answers anything that is not a page (a redirect, a
   * 404) itself and returns null: those are not kept.
   */
  private async serveKept(
    request: Request,
    response: Response,
    key: string,
    render: () => Promise<{ page: { locale: SiteLocale; lastModified: Date }; body: string } | null>,
  ): Promise<void> {
    const version = await this.version.execute();
    const kept = this.cache.get(key, version);
    if (kept) return this.send(request, response, kept);
    const rendered = await render();
    if (rendered === null) return;
    const { page, body } = rendered;
    this.send(request, response, this.cache.keep(key, version, { body, contentType: HTML, lastModified: page.lastModified, contentLanguage: page.locale.requested }));
  }

  private send(request: Request, response: Response, page: Omit<KeptPage, 'etag'> & { etag?: string }): void {
    if (page.contentLanguage) response.setHeader('Content-Language', page.contentLanguage);
    sendPage(request, response, { body: page.body, contentType: page.contentType, lastModified: page.lastModified, csp: this.csp, etag: page.etag });
  }
}

/** No prefix (the default language) or one shaped like a language code; the use case says whether it is enabled. */
export function isSiteLanguage(lang: string | undefined): lang is string | undefined {
  return lang === undefined || isLanguageSegment(lang);
}
