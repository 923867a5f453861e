import { Injectable } from '@nestjs/common';
import { CurrentHelpdesk } from '../../helpdesk/application/current-helpdesk.js';
import { ArticleReadRepository } from './article-read.repository.js';

/** For each locale, the published articles with no translation in it (default: every enabled language but the default). */
@Injectable()
export class ListMissingTranslationsUseCase {
  constructor(
    private readonly views: ArticleReadRepository,
    private readonly helpdesk: CurrentHelpdesk,
  ) {}

  async execute(locales: readonly string[] | undefined): Promise<Record<string, string[]>> {
    const helpdesk = await this.helpdesk.get();
    const wanted = locales ?? helpdesk.languages.filter((l) => l !== helpdesk.defaultLanguage);
    for (const locale of wanted) helpdesk.assertTranslationLanguage(locale);
    return this.views.missingTranslations([...new Set(wanted)]);
  }
}
