import { Injectable } from '@nestjs/common';
import { HelpCenterArticleBodies } from './help-center-article-bodies.js';
import { HelpCenterReadRepository } from './help-center-read.repository.js';
import { articleLanguages, articleLink, collectionCrumb, collectionLink, sectionCrumb, sectionLink, siteContext } from './help-center-site.js';
import type { ArticlePageResult } from './help-center-views.js';

/**
 * An article's page by its slug: the live content (never a draft or a trashed article) in the asked language, or
 * the default language's marked as a fallback, rendered with heading anchors and its table of contents;
 * breadcrumbs, related articles, previous and next in its collection, the languages it can be read in. A slug the
 * article had before is `moved` (to its current slug); anything else is `not_found`. NotFoundError for a language
 * that is not enabled. The page is read in one statement (and the helpdesk beside it); bodies are rendered once per
 * revision or translation publication.
 */
@Injectable()
export class GetHelpCenterArticleUseCase {
  constructor(
    private readonly reads: HelpCenterReadRepository,
    private readonly bodies: HelpCenterArticleBodies,
  ) {}

  async execute(slug: string, language?: string): Promise<ArticlePageResult> {
    const [site, found] = await Promise.all([this.reads.site(), this.reads.findArticle(slug, language ?? null)]);
    const context = siteContext(site, language);
    if (found === null) return { kind: 'not_found', branding: context.branding, locale: context.locale };
    if (found.kind === 'moved') return { kind: 'moved', slug: found.slug };
    const row = found.article;
    const body = await this.bodies.render(row.body);
    // The SEO fields are written in the default language: a translation's page does not borrow them.
    const inDefaultLanguage = row.language === context.locale.defaultLanguage;
    return {
      kind: 'page',
      page: {
        branding: context.branding,
        locale: context.locale,
        lastModified: context.lastModified,
        article: {
          ...articleLink(row, context),
          html: body.html,
          metaDescription: inDefaultLanguage ? row.metaDescription : null,
          keywords: inDefaultLanguage ? row.keywords : null,
          ogImage: row.ogImage,
        },
        toc: body.toc,
        breadcrumbs: [
          sectionCrumb(sectionLink(row.section, context)),
          ...row.collections.map((collection) => collectionCrumb(collectionLink(collection, collection.articleCount, context))),
        ],
        related: row.related.map((link) => articleLink(link, context)),
        previous: row.previous ? articleLink(row.previous, context) : null,
        next: row.next ? articleLink(row.next, context) : null,
        availableLanguages: articleLanguages(row.translations, context),
      },
    };
  }
}
