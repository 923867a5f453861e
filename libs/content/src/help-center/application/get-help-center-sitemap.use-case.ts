import { Injectable } from '@nestjs/common';
import { HelpCenterReadRepository } from './help-center-read.repository.js';
import { articleLanguages, siteContext } from './help-center-site.js';
import { HelpCenterTree } from './help-center-tree.js';
import type { Sitemap } from './help-center-views.js';

/**
 * The sitemap: every live article with when it last changed (its publication or a translation's) and the
 * languages it is live in (default first), and every collection holding live articles (in it or below it).
 */
@Injectable()
export class GetHelpCenterSitemapUseCase {
  constructor(private readonly reads: HelpCenterReadRepository) {}

  async execute(): Promise<Sitemap> {
    const [site, structure, articles] = await Promise.all([this.reads.site(), this.reads.structure(null), this.reads.sitemapArticles()]);
    const context = siteContext(site, undefined);
    const tree = new HelpCenterTree(structure, context);
    return {
      locale: context.locale,
      articles: articles.map((row) => ({ slug: row.slug, lastModified: row.lastModified, languages: articleLanguages(row.translations, context) })),
      collections: tree.liveCollections().map(({ collection, last }) => ({ shortId: collection.shortId, lastModified: last })),
    };
  }
}
