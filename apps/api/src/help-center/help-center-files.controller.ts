import { Controller, Get, Next, Param, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { HttpConfig } from '#core';
import { Public } from '#gateway';
import { GetHelpCenterFeedUseCase, GetHelpCenterSitemapUseCase } from '#content';
import { atomFeed, lastModifiedOf, robotsTxt, sitemapPartXml, sitemapXml } from './feeds.js';
import { HelpCenterErrorFilter } from './help-center-error.filter.js';
import { isSiteLanguage } from './help-center-pages.controller.js';
import { sendStaticAsset } from '../common/html/static-assets.js';
import { contentSecurityPolicy, sendPage } from './page-response.js';
import { siteAsset, siteAssetStandIn } from './site-assets.js';
import { SITE_PATHS } from './site-routes.js';

/**
 * What the help center serves besides its pages: sitemap.xml, robots.txt, the Atom feed of recently published
 * articles (per language) and its own stylesheets and script under hashed, immutable names.
 */
@ApiExcludeController()
@Public()
@UseFilters(HelpCenterErrorFilter)
@Controller()
export class HelpCenterFilesController {
  private readonly csp: string;
  private readonly robots: string;

  constructor(
    private readonly sitemap: GetHelpCenterSitemapUseCase,
    private readonly feed: GetHelpCenterFeedUseCase,
    private readonly http: HttpConfig,
  ) {
    this.csp = contentSecurityPolicy(http.staticUrl);
    this.robots = robotsTxt(http.publicUrl);
  }

  @Get(SITE_PATHS.sitemap)
  async sitemapXml(@Req() request: Request, @Res() response: Response): Promise<void> {
    const sitemap = await this.sitemap.execute();
    sendPage(request, response, { body: sitemapXml(sitemap, this.http.publicUrl), contentType: 'application/xml; charset=utf-8', lastModified: lastModifiedOf(sitemap), csp: this.csp });
  }

  /** `/sitemaps/{n}.xml`: a part of a sitemap past 50,000 URLs (see sitemapXml); 404 otherwise. */
  @Get(SITE_PATHS.sitemapPart)
  async sitemapPart(@Param('file') file: string, @Req() request: Request, @Res() response: Response, @Next() next: NextFunction): Promise<void> {
    const part = /^([1-9][0-9]{0,5})\.xml$/.exec(file);
    if (!part) return next();
    const sitemap = await this.sitemap.execute();
    const body = sitemapPartXml(sitemap, this.http.publicUrl, Number(part[1]));
    if (body === null) return next();
    sendPage(request, response, { body, contentType: 'application/xml; charset=utf-8', lastModified: lastModifiedOf(sitemap), csp: this.csp });
  }

  @Get(SITE_PATHS.robots)
  robotsTxt(@Req() request: Request, @Res() response: Response): void {
    sendPage(request, response, { body: this.robots, contentType: 'text/plain; charset=utf-8', lastModified: null, csp: this.csp });
  }

  @Get(SITE_PATHS.feed)
  async atomFeed(@Param('lang') lang: string | undefined, @Req() request: Request, @Res() response: Response, @Next() next: NextFunction): Promise<void> {
    if (!isSiteLanguage(lang)) return next();
    const feed = await this.feed.execute(lang);
    sendPage(request, response, { body: atomFeed(feed, this.http.publicUrl), contentType: 'application/atom+xml; charset=utf-8', lastModified: feed.lastModified, csp: this.csp });
  }

  /**
   * `/assets/<name>.<hash>.css|js`: the name changes with the content, so it is cached for a year and never
   * revalidated. Another version's hash (a rolling deploy) gets this version's file, not stored (sendStaticAsset).
   */
  @Get(SITE_PATHS.asset)
  asset(@Param('name') name: string, @Req() request: Request, @Res() response: Response): void {
    const exact = siteAsset(name);
    if (exact) return sendStaticAsset(request, response, exact);
    const standIn = siteAssetStandIn(name);
    sendStaticAsset(request, response, standIn, { standIn: standIn !== null });
  }
}
