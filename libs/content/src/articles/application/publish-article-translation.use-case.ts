import { Injectable } from '@nestjs/common';
import { Clock, InvalidStateError, NotFoundError, UnitOfWork } from '#core';
import { ContentEvents } from '../../shared/application/content-events.js';
import type { ArticleTranslation } from '../domain/article-translation.js';
import { ArticleTranslationRepository } from './article-translation.repository.js';
import { GetLockedArticle } from './get-locked-article.js';

/** Makes a translation's draft live (and searchable in its language). */
@Injectable()
export class PublishArticleTranslationUseCase {
  constructor(
    private readonly translations: ArticleTranslationRepository,
    private readonly locked: GetLockedArticle,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute(articleId: string, locale: string): Promise<ArticleTranslation> {
    return this.unitOfWork.run(async () => {
      const article = await this.locked.get(articleId);
      if (article.status === 'trashed') throw new InvalidStateError(`Article ${articleId} is trashed; restore it first`);
      if (!(await this.translations.find(articleId, locale))) throw new NotFoundError(`Translation ${locale} of article`, articleId);
      await this.translations.publish(articleId, locale, this.clock.now());
      await this.events.article('article.updated', articleId);
      return (await this.translations.find(articleId, locale))!;
    });
  }
}
