import { Module, type OnModuleInit } from '@nestjs/common';
import { DatabaseModule } from '#core';
import { ArticleAccess } from './articles/application/article-access.js';
import { ArticleBodies } from './articles/application/article-bodies.js';
import { ArticleDrafts } from './articles/application/article-drafts.js';
import { ArticlePlacement } from './articles/application/article-placement.js';
import { DiffArticleRevisionsUseCase, GetArticleRevisionUseCase, ListArticleRevisionsUseCase } from './articles/application/article-revisions.use-cases.js';
import { ArticleSlugs } from './articles/application/article-slugs.js';
import { DiscardArticleDraftUseCase } from './articles/application/discard-article-draft.use-case.js';
import { MoveArticleUseCase } from './articles/application/move-article.use-case.js';
import { RestoreArticleUseCase } from './articles/application/restore-article.use-case.js';
import { TrashArticleUseCase } from './articles/application/trash-article.use-case.js';
import { UnpublishArticleUseCase } from './articles/application/unpublish-article.use-case.js';
import { ArticleRepository } from './articles/application/article.repository.js';
import { ArticleTranslationRepository } from './articles/application/article-translation.repository.js';
import {
  GetArticleTranslationUseCase,
  ListArticleTranslationsUseCase,
  MissingTranslationsUseCase,
  PublishArticleTranslationUseCase,
  PutArticleTranslationUseCase,
  SearchArticlesUseCase,
} from './articles/application/article-translation.use-cases.js';
import { TypeOrmArticleTranslationRepository } from './articles/infrastructure/typeorm-article-translation.repository.js';
import { CreateArticleUseCase } from './articles/application/create-article.use-case.js';
import { GetArticleDraftUseCase, GetArticleUseCase } from './articles/application/get-article.use-case.js';
import { GetLockedArticle } from './articles/application/get-locked-article.js';
import { ListArticlesOffsetUseCase, ListArticlesUseCase } from './articles/application/list-articles.use-case.js';
import { PublishArticleUseCase } from './articles/application/publish-article.use-case.js';
import { UpdateArticleUseCase } from './articles/application/update-article.use-case.js';
import { ArticleDraftOrmEntity, ArticleOrmEntity, ArticleRevisionOrmEntity } from './articles/infrastructure/article.orm-entity.js';
import { TypeOrmArticleRepository } from './articles/infrastructure/typeorm-article.repository.js';
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
import { GetPublishedArticleUseCase, ListPublishedArticlesUseCase } from './articles/application/published-articles.use-cases.js';
import { ArticleImages } from './images/application/article-images.js';
import { GetUserImageUseCase } from './images/application/get-user-image.use-case.js';
import { RemoteImageFetcher } from './images/application/remote-image-fetcher.port.js';
import { SafeRemoteImageFetcher } from './images/infrastructure/safe-remote-image-fetcher.js';
import { EnsureHelpdeskUseCase } from './helpdesk/application/ensure-helpdesk.use-case.js';
import { GetHelpdeskUseCase } from './helpdesk/application/get-helpdesk.use-case.js';
import { HelpdeskRepository } from './helpdesk/application/helpdesk.repository.js';
import { UpdateHelpdeskUseCase } from './helpdesk/application/update-helpdesk.use-case.js';
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
  CreateArticleUseCase,
  ListArticlesUseCase,
  ListArticlesOffsetUseCase,
  GetArticleUseCase,
  GetArticleDraftUseCase,
  UpdateArticleUseCase,
  DiscardArticleDraftUseCase,
  PublishArticleUseCase,
  UnpublishArticleUseCase,
  TrashArticleUseCase,
  RestoreArticleUseCase,
  MoveArticleUseCase,
  ListArticleRevisionsUseCase,
  GetArticleRevisionUseCase,
  DiffArticleRevisionsUseCase,
  PutArticleTranslationUseCase,
  PublishArticleTranslationUseCase,
  ListArticleTranslationsUseCase,
  GetArticleTranslationUseCase,
  MissingTranslationsUseCase,
  SearchArticlesUseCase,
  GetUserImageUseCase,
  ListPublishedArticlesUseCase,
  GetPublishedArticleUseCase,
];

/** Helpdesk, sections, collections and articles. Creates the helpdesk on the first start of a deployment. */
@Module({
  imports: [
    DatabaseModule.forFeature([
      ArticleOrmEntity,
      ArticleRevisionOrmEntity,
      ArticleDraftOrmEntity,
    ]),
  ],
  providers: [
    { provide: HelpdeskRepository, useClass: SqlHelpdeskRepository },
    { provide: SectionRepository, useClass: SqlSectionRepository },
    { provide: CollectionRepository, useClass: SqlCollectionRepository },
    { provide: ArticleRepository, useClass: TypeOrmArticleRepository },
    { provide: ArticleTranslationRepository, useClass: TypeOrmArticleTranslationRepository },
    ArticleAccess,
    ArticleBodies,
    ContentEvents,
    ArticleImages,
    { provide: RemoteImageFetcher, useClass: SafeRemoteImageFetcher },
    ArticleDrafts,
    ArticlePlacement,
    ArticleSlugs,
    GetLockedArticle,
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
