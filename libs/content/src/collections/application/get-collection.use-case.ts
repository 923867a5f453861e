import { Injectable } from '@nestjs/common';
import { NotFoundError } from '#core';
import type { Collection } from '../domain/collection.js';
import { CollectionRepository, type FindOptions } from './collection.repository.js';

@Injectable()
export class GetCollectionUseCase {
  constructor(private readonly collections: CollectionRepository) {}

  async execute(id: string, options?: FindOptions): Promise<Collection> {
    const collection = await this.collections.findById(id, options);
    if (!collection) throw new NotFoundError('Collection', id);
    return collection;
  }
}
