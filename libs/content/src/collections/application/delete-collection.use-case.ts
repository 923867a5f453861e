import { Injectable } from '@nestjs/common';
import { InvalidStateError, UnitOfWork } from '#core';
import { ArticleRepository } from '../../articles/application/article.repository.js';
import { ContentEvents } from '../../shared/application/content-events.js';
import { requireCollection } from './collection-access.js';
import { CollectionRepository } from './collection.repository.js';

/** Deletes a collection that has no child collections and no articles (409 otherwise). */
@Injectable()
export class DeleteCollectionUseCase {
  constructor(
    private readonly collections: CollectionRepository,
    private readonly articles: ArticleRepository,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  execute(id: string): Promise<void> {
    return this.unitOfWork.run(async () => {
      await this.collections.lockTree();
      // Locked: no article may be put in it between the check and the delete.
      const collection = await requireCollection(this.collections, id, { forUpdate: true });
      const children = await this.collections.countChildren(id);
      if (children > 0) throw new InvalidStateError(`Collection ${id} has ${children} child collection(s); move or delete them first`);
      const articles = await this.articles.countInCollection(id);
      if (articles > 0) throw new InvalidStateError(`Collection ${id} holds ${articles} article(s), trashed ones included; move them out first`);
      await this.collections.delete(id);
      // The collection as it was: its last state.
      await this.events.collection('collection.deleted', collection);
    });
  }
}
