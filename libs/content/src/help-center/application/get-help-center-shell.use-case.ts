import { Injectable } from '@nestjs/common';
import { HelpCenterReadRepository } from './help-center-read.repository.js';
import { siteContext } from './help-center-site.js';
import type { SiteBranding, SiteLocale } from './help-center-views.js';

/** What every public page shows around its content (for error pages): the branding and the languages. NotFoundError for a language that is not enabled. */
@Injectable()
export class GetHelpCenterShellUseCase {
  constructor(private readonly reads: HelpCenterReadRepository) {}

  async execute(language?: string): Promise<{ branding: SiteBranding; locale: SiteLocale }> {
    const { branding, locale } = siteContext(await this.reads.site(), language);
    return { branding, locale };
  }
}
