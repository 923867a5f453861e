import { Injectable } from '@nestjs/common';
import { NotFoundError } from '#core';
import type { Collection } from '../domain/collection.js';
import { CollectionRepository } from './collection.repository.js';

@Injectable()
export class GetCollectionUseCase {
  constructor(private readonly collections: CollectionRepository) {}

  async execute(id: string): Promise<Collection> {
    const collection = await this.collections.findById(id);
    if (!collection) throw new NotFoundError('Collection', id);
    return collection;
  }
}
