import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork, ValidationError } from '#core';
import { ContentEvents } from '../../shared/application/content-events.js';
import type { Collection } from '../domain/collection.js';
import { CollectionPlacement } from './collection-placement.js';
import { requireCollection } from './collection-access.js';
import { CollectionRepository } from './collection.repository.js';

export interface MoveCollectionCommand {
  /** Omitted: unchanged (or the new parent's section). null: no section. */
  readonly sectionId?: string | null;
  /** Omitted: unchanged. null: top level. */
  readonly parentCollectionId?: string | null;
}

/** Moves a collection, with its whole subtree, to another section and/or parent. */
@Injectable()
export class MoveCollectionUseCase {
  constructor(
    private readonly collections: CollectionRepository,
    private readonly placement: CollectionPlacement,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute(id: string, command: MoveCollectionCommand): Promise<Collection> {
    if (command.sectionId === undefined && command.parentCollectionId === undefined) {
      throw new ValidationError('Give section_id, parent_collection_id or both', [
        { field: 'section_id', message: 'section_id or parent_collection_id is required' },
      ]);
    }
    return this.unitOfWork.run(async () => {
      await this.collections.lockTree();
      // Locked: the save writes every field and translation back, which must not undo a concurrent PATCH or PUT.
      const collection = await requireCollection(this.collections, id, { forUpdate: true });
      let parentCollectionId = command.parentCollectionId === undefined ? collection.parentCollectionId : command.parentCollectionId;
      let sectionId = command.sectionId;
      // A new section alone takes a nested collection out of its parent: a child lives in its parent's section.
      if (command.parentCollectionId === undefined && sectionId !== undefined && sectionId !== collection.sectionId) parentCollectionId = null;
      if (parentCollectionId === null && sectionId === undefined) sectionId = collection.sectionId;
      const placement = await this.placement.resolve({ sectionId, parentCollectionId }, id);
      const now = this.clock.now();
      const moved = placement.sectionId !== collection.sectionId || placement.parentCollectionId !== collection.parentCollectionId;
      collection.moveTo(placement.sectionId, placement.parentCollectionId, now);
      await this.collections.update(collection);
      const carried = await this.collections.setSectionOfDescendants(id, placement.sectionId, now);
      if (moved) await this.events.collection('collection.updated', collection);
      // Nested collections follow their parent into its section: each one changed is updated too.
      for (const descendant of carried) await this.events.collection('collection.updated', await requireCollection(this.collections, descendant));
      return collection;
    });
  }
}
