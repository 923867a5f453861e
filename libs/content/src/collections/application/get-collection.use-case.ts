import { Injectable } from '@nestjs/common';
import type { Collection } from '../domain/collection.js';
import { requireCollection } from './collection-access.js';
import { CollectionRepository } from './collection.repository.js';

@Injectable()
export class GetCollectionUseCase {
  constructor(private readonly collections: CollectionRepository) {}

  execute(id: string): Promise<Collection> {
    return requireCollection(this.collections, id);
  }
}
