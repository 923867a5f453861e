import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiExtraModels, ApiHeader, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Response } from 'express';
import { HttpConfig, type Principal } from '#core';
import { CurrentPrincipal, RateLimit, RequireScopes } from '#gateway';
import {
  type ArticleRecord,
  CreateArticleUseCase,
  DiffArticleRevisionsUseCase,
  DiscardArticleDraftUseCase,
  GetArticleDraftUseCase,
  GetArticleRevisionUseCase,
  GetArticleUseCase,
  ListArticleRevisionsUseCase,
  ListArticlesUseCase,
  MoveArticleUseCase,
  PublishArticleUseCase,
  RestoreArticleUseCase,
  TrashArticleUseCase,
  UnpublishArticleUseCase,
  UpdateArticleUseCase,
} from '#content';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { CursorPageQuery } from '../common/pagination.request.js';
import { articleEtag, expectedArticleVersions } from './article-etag.js';
import {
  ArticleDraftResponse,
  ArticleOffsetPage,
  ArticlePage,
  ArticleResponse,
  ArticleStatusResponse,
  ArticleWithDraftResponse,
  RevisionDiffResponse,
  RevisionPage,
  RevisionResponse,
  RevisionSummaryResponse,
} from './article.response.js';
import { CreateArticleRequest, DiffQuery, FormatQuery, GetArticleQuery, ListArticlesQuery, MoveArticleRequest, UpdateArticleRequest } from './dto/article.request.js';

@ApiTags('Articles')
@ApiExtraModels(ArticlePage, ArticleOffsetPage)
@Controller('articles')
export class ArticlesController {
  constructor(
    private readonly http: HttpConfig,
    private readonly createArticle: CreateArticleUseCase,
    private readonly listArticles: ListArticlesUseCase,
    private readonly getArticle: GetArticleUseCase,
    private readonly getDraft: GetArticleDraftUseCase,
    private readonly updateArticle: UpdateArticleUseCase,
    private readonly discardDraft: DiscardArticleDraftUseCase,
    private readonly publishArticle: PublishArticleUseCase,
    private readonly unpublishArticle: UnpublishArticleUseCase,
    private readonly trashArticle: TrashArticleUseCase,
    private readonly restoreArticle: RestoreArticleUseCase,
    private readonly moveArticle: MoveArticleUseCase,
    private readonly listRevisions: ListArticleRevisionsUseCase,
    private readonly getRevision: GetArticleRevisionUseCase,
    private readonly diffRevisions: DiffArticleRevisionsUseCase,
  ) {}

  private view(record: ArticleRecord, format: FormatQuery['format'] = 'html'): ArticleResponse {
    return ArticleResponse.from(record, format, this.http.publicUrl);
  }

  /** The article after a write, with its new ETag (what the next If-Match must carry). */
  private viewWithEtag(record: ArticleRecord, response: Response): ArticleResponse {
    response.setHeader('ETag', articleEtag(record));
    return this.view(record);
  }

  /** The new status after a write, with the article's new ETag. */
  private statusWithEtag(record: ArticleRecord, response: Response): ArticleStatusResponse {
    response.setHeader('ETag', articleEtag(record));
    return { id: record.props.id, status: record.props.status };
  }

  @Post()
  @RequireScopes('content:write')
  @RateLimit('createArticle')
  @ApiOperation({
    summary: 'Create an article',
    description: 'As an open draft (draft_id set), or published at once with publish: true (legacy; needs content:publish). Body as content (ProseMirror JSON) or markdown. 60 per hour per key.',
  })
  @ApiCreatedResponse({ type: ArticleWithDraftResponse, description: 'The article, with the ID of its open draft (`draft_id`; null when created with publish: true)', headers: { ETag: { $ref: '#/components/headers/ETag' } } })
  @ApiErrors('slug_taken', 'image_upload_failed')
  async create(@Body() body: CreateArticleRequest, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) response: Response): Promise<ArticleWithDraftResponse> {
    const { record, draftId } = await this.createArticle.execute(body, principal);
    response.setHeader('ETag', articleEtag(record));
    return { ...this.view(record), draft_id: draftId };
  }

  @Get()
  @RequireScopes('content:read')
  @ApiOperation({
    summary: 'List articles',
    description:
      'Cursor form (page_size, start_cursor): newest first, or oldest-updated first with updated_since. The earlier offset form (limit, offset) answers items/limit/offset/total. Trashed articles are never listed; status draft or all needs content:write.',
  })
  @ApiOkResponse({
    description: 'A cursor page (`results`, `has_more`, `next_cursor`), or with limit/offset an offset page (`items`, `limit`, `offset`, `total`)',
    schema: { oneOf: [{ $ref: getSchemaPath(ArticlePage) }, { $ref: getSchemaPath(ArticleOffsetPage) }] },
  })
  async list(@Query() query: ListArticlesQuery, @CurrentPrincipal() principal: Principal): Promise<ArticlePage | ArticleOffsetPage> {
    const list = await this.listArticles.execute(
      {
        pageSize: query.page_size,
        startCursor: query.start_cursor,
        limit: query.limit,
        offset: query.offset,
        status: query.status,
        collectionId: query.collection_id,
        updatedSince: query.updated_since ? new Date(query.updated_since) : undefined,
        format: query.format,
      },
      principal,
    );
    if (list.form === 'offset') return { ...list.page, items: list.page.items.map((r) => this.view(r, query.format)) };
    return { ...list.page, results: list.page.results.map((r) => this.view(r, query.format)) };
  }

  @Get(':id')
  @RequireScopes('content:read')
  @ApiOperation({
    summary: 'Get an article',
    description:
      'The published content of a published article (even with an open draft). Keys without content:write see published articles only. With locale, the translation into it: its published copy, or for writers its draft when it has none (404 otherwise). ETag for If-Match.',
  })
  @ApiOkResponse({ type: ArticleResponse, description: 'The article (its live content when published), or its translation with locale', headers: { ETag: { $ref: '#/components/headers/ETag' } } })
  async get(@Param('id') id: string, @Query() query: GetArticleQuery, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) response: Response): Promise<ArticleResponse> {
    const format = query.format ?? 'html';
    const record = await this.getArticle.execute(id, format, principal, query.locale);
    response.setHeader('ETag', articleEtag(record));
    return this.view(record, format);
  }

  @Get(':id/draft')
  @RequireScopes('content:write')
  @ApiOperation({ summary: 'Get the open draft', description: '404 when the article has no open draft.' })
  @ApiOkResponse({ type: ArticleDraftResponse })
  async draft(@Param('id') id: string, @Query() query: FormatQuery): Promise<ArticleDraftResponse> {
    return ArticleDraftResponse.from(await this.getDraft.execute(id, query.format ?? 'html'), query.format ?? 'html');
  }

  @Patch(':id')
  @RequireScopes('content:write')
  @ApiOperation({
    summary: 'Update an article (writes the open draft)',
    description: 'title and content|markdown write the open draft (opened from the live revision when none is); slug, keywords, metaDescription, ogImage change the article. publish: true also publishes (legacy; needs content:publish).',
  })
  @ApiHeader({ name: 'If-Match', required: false, description: 'The ETag of GET; 412 precondition_failed when the article changed since' })
  @ApiOkResponse({ type: ArticleWithDraftResponse, description: 'The article, with the ID of its open draft (`draft_id`)', headers: { ETag: { $ref: '#/components/headers/ETag' } } })
  @ApiErrors('slug_taken', 'invalid_state', 'precondition_failed', 'image_upload_failed')
  async update(
    @Param('id') id: string,
    @Body() body: UpdateArticleRequest,
    @CurrentPrincipal() principal: Principal,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ArticleWithDraftResponse> {
    const { record, draftId } = await this.updateArticle.execute(id, body, principal, { expectedVersions: expectedArticleVersions(ifMatch, id) });
    response.setHeader('ETag', articleEtag(record));
    return { ...this.view(record), draft_id: draftId };
  }

  @Delete(':id/draft')
  @RequireScopes('content:write')
  @HttpCode(200)
  @ApiOperation({ summary: 'Discard the open draft', description: 'The article shows its live content again. 409 when there is no draft, or the article was never published.' })
  @ApiOkResponse({ type: ArticleResponse, description: 'The article after the change, with its new ETag', headers: { ETag: { $ref: '#/components/headers/ETag' } } })
  @ApiErrors('invalid_state')
  async discard(@Param('id') id: string, @Res({ passthrough: true }) response: Response): Promise<ArticleResponse> {
    return this.viewWithEtag(await this.discardDraft.execute(id), response);
  }

  @Post(':id/publish')
  @RequireScopes('content:publish')
  @HttpCode(200)
  @ApiOperation({ summary: 'Publish', description: 'Makes the open draft live as a new revision and closes the draft. Nothing new: a no-op 200.' })
  @ApiOkResponse({ type: ArticleResponse, description: 'The article after the change, with its new ETag', headers: { ETag: { $ref: '#/components/headers/ETag' } } })
  @ApiErrors('invalid_state')
  async publish(@Param('id') id: string, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) response: Response): Promise<ArticleResponse> {
    return this.viewWithEtag(await this.publishArticle.execute(id, principal.keyId), response);
  }

  @Post(':id/unpublish')
  @RequireScopes('content:publish')
  @HttpCode(200)
  @ApiOperation({ summary: 'Unpublish', description: 'Status draft; the last live content becomes the open draft. 409 when not published.' })
  @ApiOkResponse({ type: ArticleResponse, description: 'The article after the change, with its new ETag', headers: { ETag: { $ref: '#/components/headers/ETag' } } })
  @ApiErrors('invalid_state')
  async unpublish(@Param('id') id: string, @Res({ passthrough: true }) response: Response): Promise<ArticleResponse> {
    return this.viewWithEtag(await this.unpublishArticle.execute(id), response);
  }

  @Delete(':id')
  @RequireScopes('content:publish')
  @HttpCode(200)
  @ApiOperation({ summary: 'Trash an article', description: 'It leaves every list and search; restore brings it back.' })
  @ApiOkResponse({ type: ArticleStatusResponse, description: 'The article\'s new status, with its new ETag', headers: { ETag: { $ref: '#/components/headers/ETag' } } })
  @ApiErrors('invalid_state')
  async trash(@Param('id') id: string, @Res({ passthrough: true }) response: Response): Promise<ArticleStatusResponse> {
    return this.statusWithEtag(await this.trashArticle.execute(id), response);
  }

  @Post(':id/restore')
  @RequireScopes('content:write')
  @HttpCode(200)
  @ApiOperation({ summary: 'Restore a trashed article', description: 'To the status held before trashing; a published one needs content:publish too. 409 when not trashed.' })
  @ApiOkResponse({ type: ArticleStatusResponse, description: 'The article\'s new status, with its new ETag', headers: { ETag: { $ref: '#/components/headers/ETag' } } })
  @ApiErrors('invalid_state')
  async restore(@Param('id') id: string, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) response: Response): Promise<ArticleStatusResponse> {
    return this.statusWithEtag(await this.restoreArticle.execute(id, principal), response);
  }

  @Post(':id/move')
  @RequireScopes('content:write')
  @HttpCode(200)
  @ApiOperation({ summary: 'Move an article', description: 'collection_id null removes it from any collection; section_id moves it to another section.' })
  @ApiOkResponse({ type: ArticleResponse, description: 'The article after the change, with its new ETag', headers: { ETag: { $ref: '#/components/headers/ETag' } } })
  @ApiErrors('invalid_state')
  async move(@Param('id') id: string, @Body() body: MoveArticleRequest, @Res({ passthrough: true }) response: Response): Promise<ArticleResponse> {
    return this.viewWithEtag(await this.moveArticle.execute(id, { collectionId: body.collection_id, sectionId: body.section_id }), response);
  }

  @Get(':id/revisions')
  @RequireScopes('content:read')
  @ApiOperation({ summary: 'List revisions', description: 'Newest first, cursor-paginated.' })
  @ApiOkResponse({ type: RevisionPage })
  async revisions(@Param('id') id: string, @Query() query: CursorPageQuery, @CurrentPrincipal() principal: Principal): Promise<RevisionPage> {
    const page = await this.listRevisions.execute(id, { pageSize: query.page_size, startCursor: query.start_cursor }, principal);
    return { ...page, results: page.results.map(RevisionSummaryResponse.from) };
  }

  @Get(':id/revisions/:revisionId')
  @RequireScopes('content:read')
  @ApiOperation({ summary: 'Get a revision', description: 'revisionId is a revision ID or a version number.' })
  @ApiOkResponse({ type: RevisionResponse })
  async revision(
    @Param('id') id: string,
    @Param('revisionId') revisionId: string,
    @Query() query: FormatQuery,
    @CurrentPrincipal() principal: Principal,
  ): Promise<RevisionResponse> {
    return RevisionResponse.withContent(await this.getRevision.execute(id, revisionId, principal), query.format ?? 'html');
  }

  @Get(':id/revisions/:revisionId/diff')
  @RequireScopes('content:read')
  @ApiOperation({ summary: 'Diff two revisions', description: 'Unified Markdown line diff from `against` (older; version number or revision ID) to revisionId.' })
  @ApiOkResponse({ type: RevisionDiffResponse })
  async diff(@Param('id') id: string, @Param('revisionId') revisionId: string, @Query() query: DiffQuery, @CurrentPrincipal() principal: Principal): Promise<RevisionDiffResponse> {
    return RevisionDiffResponse.from(await this.diffRevisions.execute(id, revisionId, query.against, principal));
  }
}
