import { Injectable } from '@nestjs/common';
import { NotFoundError } from '#core';
import { HelpCenterReadRepository } from './help-center-read.repository.js';
import { articleLink, collectionCrumb, sectionCrumb, siteContext } from './help-center-site.js';
import { HelpCenterTree } from './help-center-tree.js';
import type { Breadcrumb, CollectionPage } from './help-center-views.js';

/**
 * A collection's page, by its short ID: breadcrumbs (its section, then its ancestors from the root), its
 * subcollections holding live articles, its live articles in order. NotFoundError for an unknown collection or one
 * without live articles in it or below it.
 */
@Injectable()
export class GetHelpCenterCollectionUseCase {
  constructor(private readonly reads: HelpCenterReadRepository) {}

  async execute(shortId: string, language?: string): Promise<CollectionPage> {
    const asked = language ?? null;
    const [site, structure, articles] = await Promise.all([this.reads.site(), this.reads.structure(asked), this.reads.collectionArticles(shortId, asked)]);
    const context = siteContext(site, language);
    const tree = new HelpCenterTree(structure, context);
    const collection = tree.collectionByShortId(shortId);
    if (!collection || tree.total(collection.id).count === 0) throw new NotFoundError('Collection', shortId);
    const section = tree.section(collection.sectionId);
    const breadcrumbs: Breadcrumb[] = [
      ...(section ? [sectionCrumb(tree.sectionLink(section))] : []),
      ...tree.ancestors(collection).map((ancestor) => collectionCrumb(tree.link(ancestor))),
    ];
    return {
      branding: context.branding,
      locale: context.locale,
      lastModified: context.lastModified,
      collection: tree.link(collection),
      breadcrumbs,
      subcollections: tree.childLinks(collection.id),
      articles: articles.map((row) => articleLink(row, context)),
    };
  }
}
