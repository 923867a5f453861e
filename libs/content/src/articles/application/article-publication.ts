import { Injectable } from '@nestjs/common';
import { Clock } from '#core';
import { ContentEvents } from '../../shared/application/content-events.js';
import type { Article } from '../domain/article.js';
import { ArticleTranslationRepository } from './article-translation.repository.js';
import { ArticleRepository } from './article.repository.js';

/**
 * Makes an article's open draft live, for the use cases that publish (publish, and update with publish: true):
 * a new revision (the next version) with the draft's content, the draft closed. Nothing new to publish: nothing
 * happens. The article must be locked by the caller's transaction.
 */
@Injectable()
export class ArticlePublication {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly translations: ArticleTranslationRepository,
    private readonly events: ContentEvents,
    private readonly clock: Clock,
  ) {}

  /** Records article.published when it published something. */
  async publish(article: Article, keyId: string): Promise<void> {
    const draft = await this.articles.findDraft(article.id);
    if (!draft && article.status === 'published') return;
    const now = this.clock.now();
    const source = await this.articles.findRevision(article.id, draft?.revisionId ?? article.currentRevisionId!);
    const revision = article.addRevision(source!.title, source!.content, keyId, now);
    await this.articles.insertRevision(revision);
    article.publish(revision, now);
    if (draft) await this.articles.deleteDraft(article.id);
    await this.articles.save(article);
    // Translations written before this publication no longer match the source.
    await this.translations.markOutdated(article.id, now);
    await this.events.article('article.published', article.id);
  }
}
