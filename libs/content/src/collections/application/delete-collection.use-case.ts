import { Injectable } from '@nestjs/common';
import { InvalidStateError, UnitOfWork } from '#core';
import { CollectionRepository } from './collection.repository.js';
import { GetCollectionUseCase } from './get-collection.use-case.js';

/** Deletes a collection that has no child collections (409 otherwise). */
@Injectable()
export class DeleteCollectionUseCase {
  constructor(
    private readonly collections: CollectionRepository,
    private readonly getCollection: GetCollectionUseCase,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  execute(id: string): Promise<void> {
    return this.unitOfWork.run(async () => {
      await this.collections.lockTree();
      await this.getCollection.execute(id);
      const children = await this.collections.countChildren(id);
      if (children > 0) throw new InvalidStateError(`Collection ${id} has ${children} child collection(s); move or delete them first`);
      await this.collections.delete(id);
    });
  }
}
