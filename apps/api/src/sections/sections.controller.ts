import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireScopes } from '#gateway';
import {
  CreateSectionUseCase,
  DeleteSectionUseCase,
  GetSectionUseCase,
  ListSectionsUseCase,
  PutSectionTranslationUseCase,
  UpdateSectionUseCase,
} from '#content';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { DeletedResponse } from '../common/page.response.js';
import { CursorPageQuery } from '../common/pagination.request.js';
import { CreateSectionRequest, PutSectionTranslationRequest, UpdateSectionRequest } from './dto/section.request.js';
import { SectionPage, SectionResponse, SectionTranslationResponse } from './section.response.js';

@ApiTags('Sections')
@Controller('sections')
export class SectionsController {
  constructor(
    private readonly listSections: ListSectionsUseCase,
    private readonly getSection: GetSectionUseCase,
    private readonly createSection: CreateSectionUseCase,
    private readonly updateSection: UpdateSectionUseCase,
    private readonly deleteSection: DeleteSectionUseCase,
    private readonly putTranslation: PutSectionTranslationUseCase,
  ) {}

  @Get()
  @RequireScopes('content:read')
  @ApiOperation({ summary: 'List sections', description: 'Cursor-paginated, ordered by position (then ID).' })
  @ApiOkResponse({ type: SectionPage })
  async list(@Query() query: CursorPageQuery): Promise<SectionPage> {
    const page = await this.listSections.execute({ pageSize: query.page_size, startCursor: query.start_cursor });
    return { ...page, results: page.results.map(SectionResponse.from) };
  }

  @Get(':id')
  @RequireScopes('content:read')
  @ApiOperation({ summary: 'Get a section', description: 'The section with all its translations.' })
  @ApiOkResponse({ type: SectionResponse })
  async get(@Param('id') id: string): Promise<SectionResponse> {
    return SectionResponse.from(await this.getSection.execute(id));
  }

  @Post()
  @RequireScopes('content:write')
  @ApiOperation({ summary: 'Create a section', description: 'After the last section unless position is given; isDefault: true makes it the default section.' })
  @ApiCreatedResponse({ type: SectionResponse })
  async create(@Body() body: CreateSectionRequest): Promise<SectionResponse> {
    return SectionResponse.from(await this.createSection.execute(body));
  }

  @Patch(':id')
  @RequireScopes('content:write')
  @ApiOperation({ summary: 'Update a section', description: 'Rename, reorder, or make it the default section.' })
  @ApiOkResponse({ type: SectionResponse })
  @ApiErrors('invalid_state')
  async update(@Param('id') id: string, @Body() body: UpdateSectionRequest): Promise<SectionResponse> {
    return SectionResponse.from(await this.updateSection.execute(id, body));
  }

  @Delete(':id')
  @RequireScopes('content:write')
  @HttpCode(200)
  @ApiOperation({ summary: 'Delete a section', description: 'Only an empty section that is not the default one (409 otherwise).' })
  @ApiOkResponse({ type: DeletedResponse })
  @ApiErrors('invalid_state')
  async delete(@Param('id') id: string): Promise<DeletedResponse> {
    await this.deleteSection.execute(id);
    return { id, deleted: true };
  }

  @Put(':id/translations/:language')
  @RequireScopes('content:write')
  @ApiOperation({
    summary: 'Create or replace a section translation',
    description: 'language must be one of the helpdesk languages other than the default one (400 otherwise). 201 when created, 200 when replaced.',
  })
  @ApiOkResponse({ type: SectionTranslationResponse, description: 'Replaced' })
  @ApiCreatedResponse({ type: SectionTranslationResponse, description: 'Created' })
  async putTranslationOf(
    @Param('id') id: string,
    @Param('language') language: string,
    @Body() body: PutSectionTranslationRequest,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SectionTranslationResponse> {
    const { translation, created } = await this.putTranslation.execute(id, language, body);
    response.status(created ? 201 : 200);
    return SectionTranslationResponse.from(translation);
  }
}
