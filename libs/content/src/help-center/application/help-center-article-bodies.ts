import { Injectable } from '@nestjs/common';
import { contentSchema, headingOutline, toHtml } from '../../content-format/index.js';
import { ArticleImages } from '../../images/application/article-images.js';
import { type BodySource, HelpCenterReadRepository } from './help-center-read.repository.js';
import { RESERVED_ELEMENT_IDS, type TocEntry } from './help-center-views.js';

export interface RenderedBody {
  readonly html: string;
  readonly toc: readonly TocEntry[];
}

/** Cached renderings: at most this many characters of HTML in all (the least recently used go first). */
const CACHE_MAX_CHARS = 32 * 1024 * 1024;
const CACHE_MAX_ENTRIES = 2000;

/**
 * An article body as the public pages show it: rendered by the content format's HTML renderer from the stored
 * document, with heading anchors and the table of contents they make, images at their public URLs. What a
 * revision or a translation's publication holds never changes, so renderings are kept (by that key) in memory.
 */
@Injectable()
export class HelpCenterArticleBodies {
  private readonly cache = new Map<string, RenderedBody>();
  private cachedChars = 0;

  constructor(
    private readonly reads: HelpCenterReadRepository,
    private readonly images: ArticleImages,
  ) {}

  async render(source: BodySource): Promise<RenderedBody> {
    const key = 'revisionId' in source ? `r:${source.revisionId}` : `t:${source.translationId}:${source.publishedAt.getTime()}`;
    const cached = this.cache.get(key);
    if (cached) {
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached;
    }
    const stored = await this.reads.bodyDocument(source);
    if (!stored) return { html: '', toc: [] };
    const doc = contentSchema.nodeFromJSON(stored.json);
    const body: RenderedBody = {
      html: toHtml(doc, { assetUrl: (src) => this.images.publicUrl(src), headingIds: true, reservedIds: RESERVED_ELEMENT_IDS, alignmentClasses: true }),
      toc: headingOutline(doc, { reservedIds: RESERVED_ELEMENT_IDS }),
    };
    // A translation published again between the page's read and this one: shown, not kept under the older key.
    const current = 'revisionId' in source || stored.publishedAt?.getTime() === source.publishedAt.getTime();
    if (current) this.keep(key, body);
    return body;
  }

  private keep(key: string, body: RenderedBody): void {
    const replaced = this.cache.get(key);
    if (replaced) this.cachedChars -= replaced.html.length;
    this.cache.set(key, body);
    this.cachedChars += body.html.length;
    while (this.cache.size > CACHE_MAX_ENTRIES || this.cachedChars > CACHE_MAX_CHARS) {
      const [oldest, value] = this.cache.entries().next().value as [string, RenderedBody];
      this.cache.delete(oldest);
      this.cachedChars -= value.html.length;
    }
  }
}
