import { describe, expect, it } from '@jest/globals';
import { RequestMethod } from '@nestjs/common';
import { isLanguageSegment, siteRouteList, siteRoutesOutsideApiPrefix } from './site-routes.js';

describe('the site routes', () => {
  it.each(['en', 'fr', 'pt-BR', 'zh-Hant', 'ast'])('%s can be a language prefix', (segment) => {
    expect(isLanguageSegment(segment)).toBe(true);
  });

  it.each(['v1', 'docs', 'static', 'healthz', 'readyz', 'assets', 'articles', 'search', 'sitemap.xml', 'EN', 'e', ''])('%s cannot (it is left to the API and its JSON 404)', (segment) => {
    expect(isLanguageSegment(segment)).toBe(false);
  });

  it('excludes exactly its own declared paths from /v1, parameters escaped so no API route matches them', () => {
    const excluded = siteRoutesOutsideApiPrefix();
    expect(excluded).toContainEqual({ path: 'articles/\\:slug', method: RequestMethod.GET });
    expect(excluded).toContainEqual({ path: '\\:lang/articles/\\:slug/feedback', method: RequestMethod.POST });
    expect(excluded.every((route) => !/(^|[^\\]):/.test(route.path))).toBe(true);
  });

  it('lists its routes as the router serves them', () => {
    expect(siteRouteList()).toEqual(expect.arrayContaining(['GET /', 'GET /{lang}', 'GET /articles/{slug}', 'GET /{lang}/articles/{slug}', 'POST /articles/{slug}/feedback', 'GET /sitemap.xml', 'GET /assets/{name}']));
  });
});
