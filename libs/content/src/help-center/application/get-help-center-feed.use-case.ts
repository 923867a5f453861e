import { Injectable } from '@nestjs/common';
import { HelpCenterReadRepository } from './help-center-read.repository.js';
import { articleLink, siteContext } from './help-center-site.js';
import type { Feed } from './help-center-views.js';

/** Entries of a feed. */
const FEED_ARTICLES = 20;

/**
 * A language's feed: its 20 most recently published live articles, newest first. Another language than the
 * default one lists only articles published in it (no fallbacks: a feed is in one language).
 */
@Injectable()
export class GetHelpCenterFeedUseCase {
  constructor(private readonly reads: HelpCenterReadRepository) {}

  async execute(language?: string): Promise<Feed> {
    const site = await this.reads.site();
    const context = siteContext(site, language);
    const rows = await this.reads.feed(context.translation, FEED_ARTICLES);
    return {
      branding: context.branding,
      locale: context.locale,
      lastModified: context.lastModified,
      articles: rows.map((row) => articleLink(row, context)),
    };
  }
}
