import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { HttpConfig } from '#core';
import { Public, RateLimit } from '#gateway';
import { GetPublishedArticleUseCase, ListPublishedArticlesUseCase } from '#content';
import { SubmitFeedbackUseCase } from '#feedback';
import { ArticlePage, ArticleResponse } from '../articles/article.response.js';
import { ErrorResponse } from '../common/error.response.js';
import { PublicArticlesQuery, SubmitFeedbackRequest } from './feedback.request.js';
import { PublicFeedbackResponse } from './feedback.response.js';

/** What a public help center front end uses, without a key: published articles (HTML) and reader feedback. */
@ApiTags('Public')
@Controller('public/articles')
export class PublicController {
  constructor(
    private readonly listArticles: ListPublishedArticlesUseCase,
    private readonly getArticle: GetPublishedArticleUseCase,
    private readonly submit: SubmitFeedbackUseCase,
    private readonly http: HttpConfig,
  ) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'List published articles (public)', description: 'No key. Published articles only, newest first, HTML; filters collection_id and section_id.' })
  @ApiOkResponse({ type: ArticlePage })
  async list(@Query() query: PublicArticlesQuery): Promise<ArticlePage> {
    const page = await this.listArticles.execute({ pageSize: query.page_size, startCursor: query.start_cursor, collectionId: query.collection_id, sectionId: query.section_id });
    return { ...page, results: page.results.map((r) => ArticleResponse.from(r, 'html', this.http.publicUrl)) };
  }

  @Get(':id')
  @Public()
  @ApiOperation({ summary: 'Get a published article (public)', description: 'No key. 404 unless the article is published.' })
  @ApiOkResponse({ type: ArticleResponse })
  async get(@Param('id') id: string): Promise<ArticleResponse> {
    return ArticleResponse.from(await this.getArticle.execute(id), 'html', this.http.publicUrl);
  }

  @Post(':id/feedback')
  @Public()
  @RateLimit('publicFeedback')
  @ApiOperation({
    summary: 'Leave feedback on an article (public)',
    description:
      'No key; published articles only (404 otherwise); RATE_LIMIT_PUBLIC_FEEDBACK_PER_MINUTE per client IP (10). Matched to a help center user ' +
      'by email. Answers only the receipt (id, createdAt): whether the email belongs to a help center user is never revealed without a key.',
  })
  @ApiCreatedResponse({ type: PublicFeedbackResponse })
  @ApiTooManyRequestsResponse({ type: ErrorResponse, description: 'Too many submissions from this IP address; see Retry-After' })
  async feedback(@Param('id') id: string, @Body() body: SubmitFeedbackRequest): Promise<PublicFeedbackResponse> {
    return this.submit.execute(id, body);
  }
}
