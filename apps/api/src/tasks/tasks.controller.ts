import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { type Principal } from '#core';
import { CurrentPrincipal, RequireScopes } from '#gateway';
import {
  ApplyTaskOutputUseCase,
  CancelTaskUseCase,
  CreateTaskUseCase,
  GetTaskOutputUseCase,
  GetTaskUseCase,
  ListTasksUseCase,
  RejectTaskOutputUseCase,
  TASK_STATUSES,
} from '#tasks';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { CreateTaskRequest, ListTasksQuery } from './task.request.js';
import { TaskBasicResponse, TaskOutputDetailResponse, TaskOutputResponse, TaskPage, TaskResponse } from './task.response.js';

@ApiTags('Tasks')
@Controller('tasks')
export class TasksController {
  constructor(
    private readonly createTask: CreateTaskUseCase,
    private readonly listTasks: ListTasksUseCase,
    private readonly getTask: GetTaskUseCase,
    private readonly cancelTask: CancelTaskUseCase,
    private readonly getOutput: GetTaskOutputUseCase,
    private readonly applyOutput: ApplyTaskOutputUseCase,
    private readonly rejectOutput: RejectTaskOutputUseCase,
  ) {}

  @Post()
  @RequireScopes('content:write')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Create an AI task',
    description:
      'Queues generation (no target, or a collection/section to create in) or an update of a target article, collection or section. The worker runs it with the configured generator (AI_PROVIDER). Poll GET /tasks/{id}.',
  })
  @ApiAcceptedResponse({ type: TaskResponse })
  async create(@Body() body: CreateTaskRequest, @CurrentPrincipal() principal: Principal): Promise<TaskResponse> {
    return this.createTask.execute(body, principal);
  }

  @Get()
  @RequireScopes('content:read')
  @ApiOperation({ summary: 'List tasks', description: 'Offset page (`items`, `limit`, `offset`, `total`), newest first; each task as id, title, status.' })
  @ApiOkResponse({ type: TaskPage })
  async list(@Query() query: ListTasksQuery): Promise<TaskPage> {
    return this.listTasks.execute({ limit: query.limit, offset: query.offset });
  }

  @Get(':id')
  @RequireScopes('content:read')
  @ApiExtraModels(TaskResponse)
  @ApiOperation({ summary: 'Get a task', description: 'id, title, status for content:read; the whole task with its outputs for keys with content:write.' })
  @ApiOkResponse({
    description: 'With content:write the whole task and its outputs; otherwise id, title and status only (the second shape excludes the first)',
    schema: {
      oneOf: [
        { $ref: getSchemaPath(TaskResponse) },
        {
          title: 'Basic task',
          type: 'object',
          properties: { id: { type: 'string' }, title: { type: ['string', 'null'] }, status: { type: 'string', enum: [...TASK_STATUSES] } },
          required: ['id', 'title', 'status'],
          additionalProperties: false,
        },
      ],
    },
  })
  async get(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<TaskResponse | TaskBasicResponse> {
    return this.getTask.execute(id, principal);
  }

  @Post(':id/cancel')
  @RequireScopes('content:write')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a task', description: 'A queued or running task becomes cancelled (a running one stops at its next step, its results discarded). 409 when it has finished.' })
  @ApiOkResponse({ type: TaskResponse })
  @ApiErrors('invalid_state')
  async cancel(@Param('id') id: string): Promise<TaskResponse> {
    return this.cancelTask.execute(id);
  }

  @Get(':id/outputs/:outputId')
  @RequireScopes('content:write')
  @ApiOperation({ summary: 'Get a task output', description: 'The proposed Markdown and, for updates, a unified diff against the target’s current content (its open draft if it has one).' })
  @ApiOkResponse({ type: TaskOutputDetailResponse })
  async output(@Param('id') id: string, @Param('outputId') outputId: string): Promise<TaskOutputDetailResponse> {
    return this.getOutput.execute(id, outputId);
  }

  @Post(':id/outputs/:outputId/apply')
  @RequireScopes('content:write')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Apply a task output',
    description: 'An article output becomes the target’s open draft or a new draft article (never published); collection and section outputs are created or updated. Sets appliedAt. 409 unless proposed.',
  })
  @ApiOkResponse({ type: TaskOutputResponse })
  @ApiErrors('invalid_state')
  async apply(@Param('id') id: string, @Param('outputId') outputId: string, @CurrentPrincipal() principal: Principal): Promise<TaskOutputResponse> {
    return this.applyOutput.execute(id, outputId, principal);
  }

  @Post(':id/outputs/:outputId/reject')
  @RequireScopes('content:write')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reject a task output', description: '409 unless proposed.' })
  @ApiOkResponse({ type: TaskOutputResponse })
  @ApiErrors('invalid_state')
  async reject(@Param('id') id: string, @Param('outputId') outputId: string): Promise<TaskOutputResponse> {
    return this.rejectOutput.execute(id, outputId);
  }
}
