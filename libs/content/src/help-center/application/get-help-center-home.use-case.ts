import { Injectable } from '@nestjs/common';
import { HelpCenterReadRepository } from './help-center-read.repository.js';
import { articleLink, siteContext } from './help-center-site.js';
import { HelpCenterTree } from './help-center-tree.js';
import type { HomePage } from './help-center-views.js';

/** Recent articles on the home page. */
const RECENT_ARTICLES = 10;

/**
 * The home page: sections in order, each with its top-level collections (nested, with live article counts including
 * descendants), sections and collections without live articles left out; the newest published articles.
 */
@Injectable()
export class GetHelpCenterHomeUseCase {
  constructor(private readonly reads: HelpCenterReadRepository) {}

  async execute(language?: string): Promise<HomePage> {
    const asked = language ?? null;
    const [site, structure, recent] = await Promise.all([this.reads.site(), this.reads.structure(asked), this.reads.recentArticles(asked, RECENT_ARTICLES)]);
    const context = siteContext(site, language);
    const tree = new HelpCenterTree(structure, context);
    const sections = tree.sections.flatMap((section) => {
      const collections = tree.sectionNodes(section.id);
      return collections.length > 0 || tree.looseCount(section.id) > 0 ? [{ section: tree.sectionLink(section), collections }] : [];
    });
    return {
      branding: context.branding,
      locale: context.locale,
      lastModified: context.lastModified,
      sections,
      recentArticles: recent.map((row) => articleLink(row, context)),
    };
  }
}
