import { NotFoundError } from '#core';
import type { Collection } from '../domain/collection.js';
import type { CollectionRepository, FindOptions } from './collection.repository.js';

/** The collection a use case acts on, locked as `options` say; NotFoundError (404) when there is none. */
export async function requireCollection(collections: CollectionRepository, id: string, options?: FindOptions): Promise<Collection> {
  const collection = await collections.findById(id, options);
  if (!collection) throw new NotFoundError('Collection', id);
  return collection;
}
