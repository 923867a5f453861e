import { Injectable } from '@nestjs/common';
import { NotFoundError } from '#core';
import { HelpCenterReadRepository } from './help-center-read.repository.js';
import { articleLink, siteContext } from './help-center-site.js';
import { HelpCenterTree } from './help-center-tree.js';
import type { SectionPage } from './help-center-views.js';

/**
 * A section's page: its collections holding live articles (nested, with counts) and its live articles outside any
 * collection. NotFoundError for an unknown section or one without live articles.
 */
@Injectable()
export class GetHelpCenterSectionUseCase {
  constructor(private readonly reads: HelpCenterReadRepository) {}

  async execute(sectionId: string, language?: string): Promise<SectionPage> {
    const asked = language ?? null;
    const [site, structure, articles] = await Promise.all([this.reads.site(), this.reads.structure(asked), this.reads.sectionArticles(sectionId, asked)]);
    const context = siteContext(site, language);
    const tree = new HelpCenterTree(structure, context);
    const section = tree.section(sectionId);
    const collections = section ? tree.sectionNodes(section.id) : [];
    if (!section || (collections.length === 0 && articles.length === 0)) throw new NotFoundError('Section', sectionId);
    return {
      branding: context.branding,
      locale: context.locale,
      lastModified: context.lastModified,
      section: tree.sectionLink(section),
      collections,
      articles: articles.map((row) => articleLink(row, context)),
    };
  }
}
