import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import { ContentEvents } from '../../shared/application/content-events.js';
import type { Collection } from '../domain/collection.js';
import { requireCollection } from './collection-access.js';
import { CollectionRepository } from './collection.repository.js';

export interface UpdateCollectionCommand {
  readonly title?: string;
  readonly subtitle?: string | null;
  readonly shortId?: string;
}

@Injectable()
export class UpdateCollectionUseCase {
  constructor(
    private readonly collections: CollectionRepository,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute(id: string, command: UpdateCollectionCommand): Promise<Collection> {
    return this.unitOfWork.run(async () => {
      // Locked: the save writes every field and translation back, which must not undo a concurrent write.
      const collection = await requireCollection(this.collections, id, { forUpdate: true });
      const before = collection.snapshot();
      collection.update(command, this.clock.now());
      await this.collections.update(collection);
      const after = collection.snapshot();
      if (before.title !== after.title || before.subtitle !== after.subtitle || before.shortId !== after.shortId) {
        await this.events.collection('collection.updated', collection);
      }
      return collection;
    });
  }
}
