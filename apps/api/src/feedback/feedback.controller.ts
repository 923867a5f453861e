import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Principal } from '#core';
import { CurrentPrincipal, RequireScopes } from '#gateway';
import {
  CreateHelpCenterUserUseCase,
  GetFeedbackSummaryUseCase,
  GetHelpCenterUserUseCase,
  ListFeedbackUseCase,
  ListHelpCenterUsersUseCase,
  ResolveFeedbackUseCase,
  UpdateHelpCenterUserUseCase,
} from '#feedback';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { CursorPageQuery } from '../common/pagination.request.js';
import { CreateUserRequest, ListFeedbackQuery, ResolveFeedbackRequest, UpdateUserRequest } from './feedback.request.js';
import { FeedbackPage, FeedbackSummaryResponse, HelpCenterUserPage, HelpCenterUserResponse, ResolvedResponse } from './feedback.response.js';

@ApiTags('Feedback')
@Controller()
export class FeedbackController {
  constructor(
    private readonly listFeedback: ListFeedbackUseCase,
    private readonly resolveFeedback: ResolveFeedbackUseCase,
    private readonly summary: GetFeedbackSummaryUseCase,
  ) {}

  @Get('feedback')
  @RequireScopes('analytics:read')
  @ApiOperation({ summary: 'List feedback', description: 'Cursor-paginated, newest first; filters article_id, type, resolved=true|false. Each entry with articleTitle and the matched user.' })
  @ApiOkResponse({ type: FeedbackPage })
  async list(@Query() query: ListFeedbackQuery): Promise<FeedbackPage> {
    return this.listFeedback.execute({
      pageSize: query.page_size,
      startCursor: query.start_cursor,
      articleId: query.article_id,
      type: query.type,
      resolved: query.resolved,
    });
  }

  @Patch('feedback/:id')
  @RequireScopes('content:write')
  @ApiOperation({ summary: 'Resolve or unresolve feedback', description: '`resolved` (boolean, required) → `{ id, resolved }`. Event feedback.updated when it changes.' })
  @ApiOkResponse({ type: ResolvedResponse })
  async resolve(@Param('id') id: string, @Body() body: ResolveFeedbackRequest): Promise<ResolvedResponse> {
    return this.resolveFeedback.execute(id, body.resolved);
  }

  @Get('articles/:id/feedback/summary')
  @RequireScopes('analytics:read')
  @ApiOperation({
    summary: 'Feedback summary of an article',
    description: 'Counts of positive, negative and unresolved entries. 404 for an article the key may not see (a draft or trashed article, unless the key has content:write or content:publish), as on GET /articles/{id}.',
  })
  @ApiOkResponse({ type: FeedbackSummaryResponse })
  async articleSummary(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<FeedbackSummaryResponse> {
    return this.summary.execute(id, principal);
  }
}

@ApiTags('Help center users')
@Controller('users')
export class HelpCenterUsersController {
  constructor(
    private readonly createUser: CreateHelpCenterUserUseCase,
    private readonly listUsers: ListHelpCenterUsersUseCase,
    private readonly getUser: GetHelpCenterUserUseCase,
    private readonly updateUser: UpdateHelpCenterUserUseCase,
  ) {}

  @Post()
  @RequireScopes('content:write')
  @ApiOperation({ summary: 'Create a help center user', description: 'A reader known by email (stored lowercase, unique per helpdesk: 409 on a duplicate, whatever its case).' })
  @ApiCreatedResponse({ type: HelpCenterUserResponse })
  @ApiErrors('conflict')
  async create(@Body() body: CreateUserRequest): Promise<HelpCenterUserResponse> {
    return this.createUser.execute(body);
  }

  @Get()
  @RequireScopes('content:write')
  @ApiOperation({ summary: 'List help center users', description: 'Cursor-paginated, newest first. content:write: users are people (names, emails), not content.' })
  @ApiOkResponse({ type: HelpCenterUserPage })
  async list(@Query() query: CursorPageQuery): Promise<HelpCenterUserPage> {
    return this.listUsers.execute({ pageSize: query.page_size, startCursor: query.start_cursor });
  }

  @Get(':id')
  @RequireScopes('content:write')
  @ApiOperation({ summary: 'Get a help center user', description: 'The user: email (lowercase), name and timestamps. content:write, like the other user routes.' })
  @ApiOkResponse({ type: HelpCenterUserResponse })
  async get(@Param('id') id: string): Promise<HelpCenterUserResponse> {
    return this.getUser.execute(id);
  }

  @Patch(':id')
  @RequireScopes('content:write')
  @ApiOperation({ summary: 'Update a help center user', description: '`email` and `name` (null clears it); 409 when the email belongs to another user.' })
  @ApiOkResponse({ type: HelpCenterUserResponse })
  @ApiErrors('conflict')
  async update(@Param('id') id: string, @Body() body: UpdateUserRequest): Promise<HelpCenterUserResponse> {
    return this.updateUser.execute(id, body);
  }
}
