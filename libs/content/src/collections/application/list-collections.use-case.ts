import { Injectable } from '@nestjs/common';
import { type CursorPage, type CursorRequest, type KeysetQuery, Paginator } from '#core';
import type { Collection } from '../domain/collection.js';
import { type CollectionFilter, CollectionRepository } from './collection.repository.js';

const COLLECTIONS_LIST = 'collections';

/** Collections, newest first, cursor-paginated. */
@Injectable()
export class ListCollectionsUseCase {
  constructor(
    private readonly collections: CollectionRepository,
    private readonly paginator: Paginator,
  ) {}

  execute(request: CursorRequest & CollectionFilter): Promise<CursorPage<Collection>> {
    const read = (query: KeysetQuery) => this.collections.list(query, { sectionId: request.sectionId });
    return this.paginator.list(COLLECTIONS_LIST, request, 'created_desc', read, (c) => ({ value: c.snapshot().createdAt.toISOString(), id: c.id }), (c) => c);
  }
}
