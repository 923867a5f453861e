import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import { ContentEvents } from '../../shared/application/content-events.js';
import type { Article } from '../domain/article.js';
import { ArticleTranslationRepository } from './article-translation.repository.js';
import { ArticleRepository } from './article.repository.js';
import { GetLockedArticle } from './get-locked-article.js';

/**
 * Makes the open draft live: a new revision (the next version) with the draft's content, the draft closed.
 * Publishing with nothing new is a no-op. Runs inside the caller's unit of work when there is one.
 */
@Injectable()
export class PublishArticleUseCase {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly translations: ArticleTranslationRepository,
    private readonly locked: GetLockedArticle,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute(id: string, keyId: string): Promise<Article> {
    return this.unitOfWork.run(async () => {
      const article = await this.locked.get(id);
      await this.publish(article, keyId);
      return article;
    });
  }

  /** Publishes an article already locked by the caller's transaction; records article.published when it did. */
  async publish(article: Article, keyId: string): Promise<void> {
    const draft = await this.articles.findDraft(article.id);
    if (!draft && article.status === 'published') return;
    const now = this.clock.now();
    const source = await this.articles.findRevision(article.id, draft?.revisionId ?? article.currentRevisionId!);
    const revision = article.addRevision(source!.title, source!.content, keyId, now);
    await this.articles.insertRevision(revision);
    article.publish(revision, now);
    if (draft) await this.articles.deleteDraft(article.id);
    await this.articles.update(article);
    await this.articles.refreshSearch(article.id);
    // Translations written before this publication no longer match the source.
    await this.translations.markOutdated(article.id, now);
    await this.events.article('article.published', article.id);
  }
}
