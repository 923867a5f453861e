import type { Provider } from '@nestjs/common';
import { ArticleAccess } from './application/article-access.js';
import { ArticleBodies } from './application/article-bodies.js';
import { ArticleDrafts } from './application/article-drafts.js';
import { ArticleLists } from './application/article-lists.js';
import { ArticlePlacement } from './application/article-placement.js';
import { ArticlePublication } from './application/article-publication.js';
import { ArticleReadRepository } from './application/article-read.repository.js';
import { ArticleRevisionAccess } from './application/article-revision-access.js';
import { ArticleSlugs } from './application/article-slugs.js';
import { ArticleStateChange } from './application/article-state-change.js';
import { ArticleTranslationRepository } from './application/article-translation.repository.js';
import { ArticleRepository } from './application/article.repository.js';
import { CreateArticleUseCase } from './application/create-article.use-case.js';
import { DiffArticleRevisionsUseCase } from './application/diff-article-revisions.use-case.js';
import { DiscardArticleDraftUseCase } from './application/discard-article-draft.use-case.js';
import { GetArticleDraftUseCase } from './application/get-article-draft.use-case.js';
import { GetArticleRevisionUseCase } from './application/get-article-revision.use-case.js';
import { GetArticleUseCase } from './application/get-article.use-case.js';
import { GetLockedArticle } from './application/get-locked-article.js';
import { GetPublishedArticleUseCase } from './application/get-published-article.use-case.js';
import { ListArticleRevisionsUseCase } from './application/list-article-revisions.use-case.js';
import { ListArticleTranslationsUseCase } from './application/list-article-translations.use-case.js';
import { ListArticlesUseCase } from './application/list-articles.use-case.js';
import { ListMissingTranslationsUseCase } from './application/list-missing-translations.use-case.js';
import { ListPublishedArticlesUseCase } from './application/list-published-articles.use-case.js';
import { MoveArticleUseCase } from './application/move-article.use-case.js';
import { PublishArticleTranslationUseCase } from './application/publish-article-translation.use-case.js';
import { PublishArticleUseCase } from './application/publish-article.use-case.js';
import { PutArticleTranslationUseCase } from './application/put-article-translation.use-case.js';
import { RestoreArticleUseCase } from './application/restore-article.use-case.js';
import { SearchArticlesUseCase } from './application/search-articles.use-case.js';
import { TrashArticleUseCase } from './application/trash-article.use-case.js';
import { UnpublishArticleUseCase } from './application/unpublish-article.use-case.js';
import { UpdateArticleUseCase } from './application/update-article.use-case.js';
import { SqlArticleReadRepository } from './infrastructure/sql-article-read.repository.js';
import { SqlArticleTranslationRepository } from './infrastructure/sql-article-translation.repository.js';
import { SqlArticleRepository } from './infrastructure/sql-article.repository.js';

/** The articles' use cases: what ContentModule exports. */
export const ARTICLE_USE_CASES = [
  CreateArticleUseCase,
  ListArticlesUseCase,
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
  ListMissingTranslationsUseCase,
  SearchArticlesUseCase,
  ListPublishedArticlesUseCase,
  GetPublishedArticleUseCase,
];

/** What the articles' use cases need inside ContentModule: their ports' SQL adapters and the helpers they share. */
export const ARTICLE_PROVIDERS: Provider[] = [
  { provide: ArticleRepository, useClass: SqlArticleRepository },
  { provide: ArticleReadRepository, useClass: SqlArticleReadRepository },
  { provide: ArticleTranslationRepository, useClass: SqlArticleTranslationRepository },
  ArticleAccess,
  ArticleBodies,
  ArticleDrafts,
  ArticleLists,
  ArticlePlacement,
  ArticlePublication,
  ArticleRevisionAccess,
  ArticleSlugs,
  ArticleStateChange,
  GetLockedArticle,
];
