import { Injectable } from '@nestjs/common';
import { ValidationError } from '#core';
import { SectionRepository } from '../../sections/application/section.repository.js';
import { CollectionRepository } from './collection.repository.js';

export interface Placement {
  readonly sectionId: string | null;
  readonly parentCollectionId: string | null;
}

/**
 * Resolves where a collection goes: a nested collection takes its parent's section (a different explicit
 * section is refused); the parent must exist and must not be the collection itself or below it.
 */
@Injectable()
export class CollectionPlacement {
  constructor(
    private readonly collections: CollectionRepository,
    private readonly sections: SectionRepository,
  ) {}

  async resolve(request: { sectionId?: string | null; parentCollectionId?: string | null }, movingId?: string): Promise<Placement> {
    const parentId = request.parentCollectionId ?? null;
    if (parentId !== null) {
      const parent = await this.collections.findById(parentId);
      if (!parent) throw ValidationError.field('parent_collection_id', `Collection ${parentId} does not exist`);
      if (movingId !== undefined && (await this.collections.lineage(parentId)).includes(movingId)) {
        throw ValidationError.field('parent_collection_id', 'A collection cannot be moved under itself or one of its descendants');
      }
      if (request.sectionId !== undefined && request.sectionId !== parent.sectionId) {
        throw ValidationError.field('section_id', `A nested collection lives in its parent's section (${parent.sectionId ?? 'none'})`);
      }
      return { sectionId: parent.sectionId, parentCollectionId: parentId };
    }
    const sectionId = request.sectionId ?? null;
    // Locked, as DeleteSectionUseCase locks it: a section cannot be deleted while a collection is placed into it.
    if (sectionId !== null && !(await this.sections.findById(sectionId, { forShare: true }))) {
      throw ValidationError.field('section_id', `Section ${sectionId} does not exist`);
    }
    return { sectionId, parentCollectionId: null };
  }
}
