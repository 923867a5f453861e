import type { Provider } from '@nestjs/common';
import { GetHelpCenterArticleUseCase } from './application/get-help-center-article.use-case.js';
import { GetHelpCenterCollectionUseCase } from './application/get-help-center-collection.use-case.js';
import { GetHelpCenterFeedUseCase } from './application/get-help-center-feed.use-case.js';
import { GetHelpCenterHomeUseCase } from './application/get-help-center-home.use-case.js';
import { GetHelpCenterSectionUseCase } from './application/get-help-center-section.use-case.js';
import { GetHelpCenterShellUseCase } from './application/get-help-center-shell.use-case.js';
import { GetHelpCenterSitemapUseCase } from './application/get-help-center-sitemap.use-case.js';
import { GetHelpCenterVersionUseCase } from './application/get-help-center-version.use-case.js';
import { CompactHelpCenterChangesUseCase } from './application/compact-help-center-changes.use-case.js';
import { HelpCenterVersionRepository } from './application/help-center-version.repository.js';
import { SqlHelpCenterVersionRepository } from './infrastructure/sql-help-center-version.repository.js';
import { HelpCenterArticleBodies } from './application/help-center-article-bodies.js';
import { HelpCenterReadRepository } from './application/help-center-read.repository.js';
import { SearchHelpCenterUseCase } from './application/search-help-center.use-case.js';
import { SqlHelpCenterReadRepository } from './infrastructure/sql-help-center-read.repository.js';

/** The public help center's use cases: what ContentModule exports. */
export const HELP_CENTER_USE_CASES = [
  GetHelpCenterHomeUseCase,
  GetHelpCenterSectionUseCase,
  GetHelpCenterCollectionUseCase,
  GetHelpCenterArticleUseCase,
  SearchHelpCenterUseCase,
  GetHelpCenterSitemapUseCase,
  GetHelpCenterFeedUseCase,
  GetHelpCenterShellUseCase,
  GetHelpCenterVersionUseCase,
  CompactHelpCenterChangesUseCase,
];

/** What they need inside ContentModule: the read model's SQL adapter and the body renderer (with its cache). */
export const HELP_CENTER_PROVIDERS: Provider[] = [
  { provide: HelpCenterReadRepository, useClass: SqlHelpCenterReadRepository },
  { provide: HelpCenterVersionRepository, useClass: SqlHelpCenterVersionRepository },
  HelpCenterArticleBodies,
];
