import { Injectable } from '@nestjs/common';
import { Clock, InvalidStateError, newId, UnitOfWork } from '#core';
import { CurrentHelpdesk } from '../../helpdesk/application/current-helpdesk.js';
import { ContentEvents } from '../../shared/application/content-events.js';
import type { ArticleTranslation } from '../domain/article-translation.js';
import { ArticleBodies, type BodyInput } from './article-bodies.js';
import { ArticleTranslationRepository } from './article-translation.repository.js';
import { GetLockedArticle } from './get-locked-article.js';

export interface PutArticleTranslationCommand extends BodyInput {
  readonly title: string;
}

/** Writes the draft of an article's translation into an enabled language other than the default one. */
@Injectable()
export class PutArticleTranslationUseCase {
  constructor(
    private readonly translations: ArticleTranslationRepository,
    private readonly locked: GetLockedArticle,
    private readonly bodies: ArticleBodies,
    private readonly helpdesk: CurrentHelpdesk,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(articleId: string, locale: string, command: PutArticleTranslationCommand): Promise<{ translation: ArticleTranslation; created: boolean }> {
    (await this.helpdesk.get()).assertTranslationLanguage(locale);
    // 404 and 409 before the body's images are fetched and stored; checked again under the lock below.
    await this.unitOfWork.run(() => this.translatable(articleId));
    const content = (await this.bodies.fromInput(command)) ?? this.bodies.empty();
    return this.unitOfWork.run(async () => {
      await this.translatable(articleId);
      const { created } = await this.translations.putDraft({ id: newId('artr'), articleId, locale, title: command.title, content, at: this.clock.now() });
      await this.events.article('article.updated', articleId);
      return { translation: (await this.translations.find(articleId, locale))!, created };
    });
  }

  /** The article, locked, if it may be translated: 404 when unknown, 409 when trashed. */
  private async translatable(articleId: string): Promise<void> {
    const article = await this.locked.get(articleId);
    if (article.status === 'trashed') throw new InvalidStateError(`Article ${articleId} is trashed; restore it to translate it`);
  }
}
