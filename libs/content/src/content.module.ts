import { Module, type OnModuleInit } from '@nestjs/common';
import { ARTICLE_PROVIDERS, ARTICLE_USE_CASES } from './articles/article.providers.js';
import { CollectionPlacement } from './collections/application/collection-placement.js';
import { CollectionRepository } from './collections/application/collection.repository.js';
import { CreateCollectionUseCase } from './collections/application/create-collection.use-case.js';
import { DeleteCollectionUseCase } from './collections/application/delete-collection.use-case.js';
import { GetCollectionUseCase } from './collections/application/get-collection.use-case.js';
import { ListCollectionsUseCase } from './collections/application/list-collections.use-case.js';
import { MoveCollectionUseCase } from './collections/application/move-collection.use-case.js';
import { PutCollectionTranslationUseCase } from './collections/application/put-collection-translation.use-case.js';
import { UpdateCollectionUseCase } from './collections/application/update-collection.use-case.js';
import { SqlCollectionRepository } from './collections/infrastructure/sql-collection.repository.js';
import { CurrentHelpdesk } from './helpdesk/application/current-helpdesk.js';
import { ContentEvents } from './shared/application/content-events.js';
import { ArticleImages } from './images/application/article-images.js';
import { GetUserImageUseCase } from './images/application/get-user-image.use-case.js';
import { RemoteImageFetcher } from './images/application/remote-image-fetcher.port.js';
import { SafeRemoteImageFetcher } from './images/infrastructure/safe-remote-image-fetcher.js';
import { EnsureHelpdeskUseCase } from './helpdesk/application/ensure-helpdesk.use-case.js';
import { GetHelpdeskUseCase } from './helpdesk/application/get-helpdesk.use-case.js';
import { HelpdeskRepository } from './helpdesk/application/helpdesk.repository.js';
import { UpdateHelpdeskUseCase } from './helpdesk/application/update-helpdesk.use-case.js';
import { HELP_CENTER_PROVIDERS, HELP_CENTER_USE_CASES } from './help-center/help-center.providers.js';
import { SqlHelpdeskRepository } from './helpdesk/infrastructure/sql-helpdesk.repository.js';
import { CreateSectionUseCase } from './sections/application/create-section.use-case.js';
import { DeleteSectionUseCase } from './sections/application/delete-section.use-case.js';
import { GetSectionUseCase } from './sections/application/get-section.use-case.js';
import { ListSectionsUseCase } from './sections/application/list-sections.use-case.js';
import { PutSectionTranslationUseCase } from './sections/application/put-section-translation.use-case.js';
import { SectionRepository } from './sections/application/section.repository.js';
import { UpdateSectionUseCase } from './sections/application/update-section.use-case.js';
import { SqlSectionRepository } from './sections/infrastructure/sql-section.repository.js';

const useCases = [
  GetHelpdeskUseCase,
  UpdateHelpdeskUseCase,
  EnsureHelpdeskUseCase,
  ListSectionsUseCase,
  GetSectionUseCase,
  CreateSectionUseCase,
  UpdateSectionUseCase,
  DeleteSectionUseCase,
  PutSectionTranslationUseCase,
  ListCollectionsUseCase,
  GetCollectionUseCase,
  CreateCollectionUseCase,
  UpdateCollectionUseCase,
  MoveCollectionUseCase,
  DeleteCollectionUseCase,
  PutCollectionTranslationUseCase,
  ...ARTICLE_USE_CASES,
  GetUserImageUseCase,
  ...HELP_CENTER_USE_CASES,
];

/** Helpdesk, sections, collections and articles. Creates the helpdesk on the first start of a deployment. */
@Module({
  providers: [
    { provide: HelpdeskRepository, useClass: SqlHelpdeskRepository },
    { provide: SectionRepository, useClass: SqlSectionRepository },
    { provide: CollectionRepository, useClass: SqlCollectionRepository },
    ...ARTICLE_PROVIDERS,
    ...HELP_CENTER_PROVIDERS,
    ContentEvents,
    ArticleImages,
    { provide: RemoteImageFetcher, useClass: SafeRemoteImageFetcher },
    CurrentHelpdesk,
    CollectionPlacement,
    ...useCases,
  ],
  exports: useCases,
})
export class ContentModule implements OnModuleInit {
  constructor(private readonly ensureHelpdesk: EnsureHelpdeskUseCase) {}

  async onModuleInit(): Promise<void> {
    await this.ensureHelpdesk.execute();
  }
}
