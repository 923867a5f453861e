import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { HttpConfig, type Principal } from '#core';
import { CurrentPrincipal, RequireScopes } from '#gateway';
import {
  ListArticleTranslationsUseCase,
  ListMissingTranslationsUseCase,
  PublishArticleTranslationUseCase,
  PutArticleTranslationUseCase,
  SearchArticlesUseCase,
} from '#content';
import { ApiErrors } from '../common/api-errors.decorator.js';
import {
  ArticleTranslationList,
  ArticleTranslationResponse,
  MissingTranslationsResponse,
  SearchPage,
  SearchResultResponse,
} from './article-translation.response.js';
import { MissingQuery, PutArticleTranslationRequest, SearchQuery } from './dto/article-translation.request.js';

/** Translations of articles, translation coverage and search. Registered before the article routes (`/articles/:id`). */
@ApiTags('Articles')
@Controller('articles')
export class ArticleTranslationsController {
  constructor(
    private readonly http: HttpConfig,
    private readonly putTranslation: PutArticleTranslationUseCase,
    private readonly publishTranslation: PublishArticleTranslationUseCase,
    private readonly listTranslations: ListArticleTranslationsUseCase,
    private readonly missingTranslations: ListMissingTranslationsUseCase,
    private readonly searchArticles: SearchArticlesUseCase,
  ) {}

  @Get('search')
  @RequireScopes('content:read')
  @ApiOperation({
    summary: 'Search published articles',
    description: 'PostgreSQL full-text search (websearch syntax), in the language configuration of the locale where it has one; ranked, with a highlighted snippet; published articles only; cursor-paginated.',
  })
  @ApiOkResponse({ type: SearchPage })
  async search(@Query() query: SearchQuery): Promise<SearchPage> {
    const page = await this.searchArticles.execute({ query: query.query, locale: query.locale, pageSize: query.page_size, startCursor: query.start_cursor });
    return { ...page, results: page.results.map((hit) => SearchResultResponse.from(hit, this.http.publicUrl)) };
  }

  @Get('translations/missing')
  @RequireScopes('content:read')
  @ApiOperation({ summary: 'Published articles missing a translation', description: 'For each locale, the published articles with no translation row in it.' })
  @ApiOkResponse({ type: MissingTranslationsResponse })
  async missing(@Query() query: MissingQuery): Promise<MissingTranslationsResponse> {
    return { missing: await this.missingTranslations.execute(query.locales?.split(',')) };
  }

  @Get(':id/translations')
  @RequireScopes('content:read')
  @ApiOperation({ summary: "List an article's translations", description: 'Every translation of the article, with its status and whether it is outdated; one page holds them all.' })
  @ApiOkResponse({ type: ArticleTranslationList })
  async list(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<ArticleTranslationList> {
    const translations = await this.listTranslations.execute(id, principal);
    return { results: translations.map(ArticleTranslationResponse.from), has_more: false, next_cursor: null };
  }

  @Put(':id/translations/:locale')
  @RequireScopes('content:write')
  @ApiOperation({
    summary: 'Write a translation (its draft)',
    description: 'title and content|markdown; locale must be an enabled language other than the default one (400 otherwise). 201 created, 200 replaced.',
  })
  @ApiOkResponse({ type: ArticleTranslationResponse, description: 'Replaced' })
  @ApiCreatedResponse({ type: ArticleTranslationResponse, description: 'Created' })
  @ApiErrors('invalid_state', 'image_upload_failed')
  async put(
    @Param('id') id: string,
    @Param('locale') locale: string,
    @Body() body: PutArticleTranslationRequest,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ArticleTranslationResponse> {
    const { translation, created } = await this.putTranslation.execute(id, locale, body);
    response.status(created ? 201 : 200);
    return ArticleTranslationResponse.from(translation);
  }

  @Post(':id/translations/:locale/publish')
  @RequireScopes('content:publish')
  @HttpCode(200)
  @ApiOperation({ summary: 'Publish a translation', description: 'Makes its draft live and searchable in its language.' })
  @ApiOkResponse({ type: ArticleTranslationResponse })
  @ApiErrors('invalid_state')
  async publish(@Param('id') id: string, @Param('locale') locale: string): Promise<ArticleTranslationResponse> {
    return ArticleTranslationResponse.from(await this.publishTranslation.execute(id, locale));
  }
}
