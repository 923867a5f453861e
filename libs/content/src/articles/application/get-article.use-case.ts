import { Injectable } from '@nestjs/common';
import { NotFoundError, type Principal } from '#core';
import { CurrentHelpdesk } from '../../helpdesk/application/current-helpdesk.js';
import { ArticleAccess, seesUnpublished } from './article-access.js';
import { type ArticleRecord, type ContentFormat, renderingOf } from './article-read.repository.js';
import { ArticleTranslationRepository } from './article-translation.repository.js';

/**
 * One article as the caller may see it (published only, without content:write or content:publish). With a locale
 * other than the default language, the title and body of its translation into it: the published copy, or for
 * writers the draft when none is published (404 otherwise).
 */
@Injectable()
export class GetArticleUseCase {
  constructor(
    private readonly access: ArticleAccess,
    private readonly translations: ArticleTranslationRepository,
    private readonly helpdesk: CurrentHelpdesk,
  ) {}

  async execute(id: string, format: ContentFormat, principal: Principal, locale?: string): Promise<ArticleRecord> {
    const record = await this.access.record(id, format, principal);
    if (locale === undefined || locale === (await this.helpdesk.get()).defaultLanguage) return record;
    const translation = await this.translations.find(id, locale);
    const shown = translation?.published ?? (translation && seesUnpublished(principal) ? translation : null);
    if (!shown) throw new NotFoundError(`Translation ${locale} of article`, id);
    return { ...record, title: shown.title, content: renderingOf(shown.content, format), locale };
  }
}
