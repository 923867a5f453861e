import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireScopes } from '#gateway';
import {
  CreateCollectionUseCase,
  DeleteCollectionUseCase,
  GetCollectionUseCase,
  ListCollectionsUseCase,
  MoveCollectionUseCase,
  PutCollectionTranslationUseCase,
  UpdateCollectionUseCase,
} from '#content';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { DeletedResponse } from '../common/page.response.js';
import { CollectionPage, CollectionResponse, CollectionTranslationResponse } from './collection.response.js';
import {
  CreateCollectionRequest,
  ListCollectionsQuery,
  MoveCollectionRequest,
  PutCollectionTranslationRequest,
  UpdateCollectionRequest,
} from './dto/collection.request.js';

@ApiTags('Collections')
@Controller('collections')
export class CollectionsController {
  constructor(
    private readonly listCollections: ListCollectionsUseCase,
    private readonly getCollection: GetCollectionUseCase,
    private readonly createCollection: CreateCollectionUseCase,
    private readonly updateCollection: UpdateCollectionUseCase,
    private readonly moveCollection: MoveCollectionUseCase,
    private readonly deleteCollection: DeleteCollectionUseCase,
    private readonly putTranslation: PutCollectionTranslationUseCase,
  ) {}

  @Get()
  @RequireScopes('content:read')
  @ApiOperation({ summary: 'List collections', description: 'Cursor-paginated, newest first.' })
  @ApiOkResponse({ type: CollectionPage })
  async list(@Query() query: ListCollectionsQuery): Promise<CollectionPage> {
    const page = await this.listCollections.execute({ pageSize: query.page_size, startCursor: query.start_cursor, sectionId: query.section_id });
    return { ...page, results: page.results.map(CollectionResponse.from) };
  }

  @Get(':id')
  @RequireScopes('content:read')
  @ApiOperation({ summary: 'Get a collection', description: 'The collection with all its translations.' })
  @ApiOkResponse({ type: CollectionResponse })
  async get(@Param('id') id: string): Promise<CollectionResponse> {
    return CollectionResponse.from(await this.getCollection.execute(id));
  }

  @Post()
  @RequireScopes('content:write')
  @ApiOperation({ summary: 'Create a collection', description: 'Optionally in a section and/or nested under a parent collection.' })
  @ApiCreatedResponse({ type: CollectionResponse })
  @ApiErrors('conflict')
  async create(@Body() body: CreateCollectionRequest): Promise<CollectionResponse> {
    return CollectionResponse.from(await this.createCollection.execute(body));
  }

  @Patch(':id')
  @RequireScopes('content:write')
  @ApiOperation({ summary: 'Update a collection', description: 'Title, subtitle, shortId. Use the move operation to change its place.' })
  @ApiOkResponse({ type: CollectionResponse })
  @ApiErrors('conflict')
  async update(@Param('id') id: string, @Body() body: UpdateCollectionRequest): Promise<CollectionResponse> {
    return CollectionResponse.from(await this.updateCollection.execute(id, body));
  }

  @Post(':id/move')
  @RequireScopes('content:write')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Move a collection',
    description: 'To another section and/or parent collection, with all its nested collections. Moving under itself or a descendant is 400.',
  })
  @ApiOkResponse({ type: CollectionResponse })
  async move(@Param('id') id: string, @Body() body: MoveCollectionRequest): Promise<CollectionResponse> {
    return CollectionResponse.from(
      await this.moveCollection.execute(id, { sectionId: body.section_id, parentCollectionId: body.parent_collection_id }),
    );
  }

  @Delete(':id')
  @RequireScopes('content:write')
  @HttpCode(200)
  @ApiOperation({ summary: 'Delete a collection', description: 'Only a collection without nested collections (409 otherwise).' })
  @ApiOkResponse({ type: DeletedResponse })
  @ApiErrors('invalid_state')
  async delete(@Param('id') id: string): Promise<DeletedResponse> {
    await this.deleteCollection.execute(id);
    return { id, deleted: true };
  }

  @Put(':id/translations/:language')
  @RequireScopes('content:write')
  @ApiOperation({
    summary: 'Create or replace a collection translation',
    description: 'language must be one of the helpdesk languages other than the default one (400 otherwise). 201 when created, 200 when replaced.',
  })
  @ApiOkResponse({ type: CollectionTranslationResponse, description: 'Replaced' })
  @ApiCreatedResponse({ type: CollectionTranslationResponse, description: 'Created' })
  async putTranslationOf(
    @Param('id') id: string,
    @Param('language') language: string,
    @Body() body: PutCollectionTranslationRequest,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CollectionTranslationResponse> {
    const { translation, created } = await this.putTranslation.execute(id, language, body);
    response.status(created ? 201 : 200);
    return CollectionTranslationResponse.from(translation);
  }
}
