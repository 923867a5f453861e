// The public face of libs/content: apps import only from here.
export { ContentModule } from './content.module.js';
export { TRANSLATION_STATUSES, type TranslationStatus } from './shared/domain/translation.js';
// The content format, for the reference documentation (node types, directives) and its examples.
export { CALLOUT_VARIANTS, contentSchema, parseMarkdown, toMarkdown } from './content-format/index.js';

export { Helpdesk } from './helpdesk/domain/helpdesk.js';
export { GetHelpdeskUseCase } from './helpdesk/application/get-helpdesk.use-case.js';
export { UpdateHelpdeskUseCase } from './helpdesk/application/update-helpdesk.use-case.js';
export { EnsureHelpdeskUseCase } from './helpdesk/application/ensure-helpdesk.use-case.js';

export { Section, type SectionTranslation } from './sections/domain/section.js';
export { ListSectionsUseCase } from './sections/application/list-sections.use-case.js';
export { GetSectionUseCase } from './sections/application/get-section.use-case.js';
export { CreateSectionUseCase } from './sections/application/create-section.use-case.js';
export { UpdateSectionUseCase } from './sections/application/update-section.use-case.js';
export { DeleteSectionUseCase } from './sections/application/delete-section.use-case.js';
export { PutSectionTranslationUseCase } from './sections/application/put-section-translation.use-case.js';

export { Collection, type CollectionTranslation, SHORT_ID_PATTERN } from './collections/domain/collection.js';
export { ListCollectionsUseCase } from './collections/application/list-collections.use-case.js';
export { GetCollectionUseCase } from './collections/application/get-collection.use-case.js';
export { CreateCollectionUseCase } from './collections/application/create-collection.use-case.js';
export { UpdateCollectionUseCase } from './collections/application/update-collection.use-case.js';
export { MoveCollectionUseCase } from './collections/application/move-collection.use-case.js';
export { DeleteCollectionUseCase } from './collections/application/delete-collection.use-case.js';
export { PutCollectionTranslationUseCase } from './collections/application/put-collection-translation.use-case.js';

export { ARTICLE_STATUSES, type ArticleRevision } from './articles/domain/article.js';
export {
  type ArticleRecord,
  CONTENT_FORMATS,
  type ContentFormat,
  type DraftView,
  renderingOf,
} from './articles/application/article-read.repository.js';
export { CreateArticleUseCase } from './articles/application/create-article.use-case.js';
export { ListArticlesUseCase } from './articles/application/list-articles.use-case.js';
export { GetArticleUseCase } from './articles/application/get-article.use-case.js';
export { GetArticleDraftUseCase } from './articles/application/get-article-draft.use-case.js';
export { UpdateArticleUseCase } from './articles/application/update-article.use-case.js';
export { PublishArticleUseCase } from './articles/application/publish-article.use-case.js';
export { DiscardArticleDraftUseCase } from './articles/application/discard-article-draft.use-case.js';
export { MoveArticleUseCase } from './articles/application/move-article.use-case.js';
export { RestoreArticleUseCase } from './articles/application/restore-article.use-case.js';
export { TrashArticleUseCase } from './articles/application/trash-article.use-case.js';
export { UnpublishArticleUseCase } from './articles/application/unpublish-article.use-case.js';
export { ListArticleRevisionsUseCase } from './articles/application/list-article-revisions.use-case.js';
export { GetArticleRevisionUseCase } from './articles/application/get-article-revision.use-case.js';
export { DiffArticleRevisionsUseCase, type RevisionDiff } from './articles/application/diff-article-revisions.use-case.js';
export { type ArticleTranslation } from './articles/domain/article-translation.js';
export { PutArticleTranslationUseCase } from './articles/application/put-article-translation.use-case.js';
export { PublishArticleTranslationUseCase } from './articles/application/publish-article-translation.use-case.js';
export { ListArticleTranslationsUseCase } from './articles/application/list-article-translations.use-case.js';
export { ListMissingTranslationsUseCase } from './articles/application/list-missing-translations.use-case.js';
export { SearchArticlesUseCase, type SearchResult } from './articles/application/search-articles.use-case.js';
export { ListPublishedArticlesUseCase } from './articles/application/list-published-articles.use-case.js';
export { GetPublishedArticleUseCase } from './articles/application/get-published-article.use-case.js';

export { GetUserImageUseCase } from './images/application/get-user-image.use-case.js';

// The public help center: the use cases its pages call and the read model they return.
export { GetHelpCenterHomeUseCase } from './help-center/application/get-help-center-home.use-case.js';
export { GetHelpCenterSectionUseCase } from './help-center/application/get-help-center-section.use-case.js';
export { GetHelpCenterCollectionUseCase } from './help-center/application/get-help-center-collection.use-case.js';
export { GetHelpCenterArticleUseCase } from './help-center/application/get-help-center-article.use-case.js';
export { SearchHelpCenterUseCase, type HelpCenterSearchRequest } from './help-center/application/search-help-center.use-case.js';
export { GetHelpCenterSitemapUseCase } from './help-center/application/get-help-center-sitemap.use-case.js';
export { GetHelpCenterFeedUseCase } from './help-center/application/get-help-center-feed.use-case.js';
export { GetHelpCenterShellUseCase } from './help-center/application/get-help-center-shell.use-case.js';
export { GetHelpCenterVersionUseCase } from './help-center/application/get-help-center-version.use-case.js';
export { CompactHelpCenterChangesUseCase } from './help-center/application/compact-help-center-changes.use-case.js';
export { ContentJobsModule } from './jobs/content-jobs.module.js';
export * from './help-center/application/help-center-views.js';
export {
  articleView,
  collectionTranslationView,
  collectionView,
  contentField,
  sectionTranslationView,
  sectionView,
} from './shared/application/resource-views.js';
