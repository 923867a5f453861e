import { Injectable } from '@nestjs/common';
import { ValidationError } from '#core';
import { CollectionRepository } from '../../collections/application/collection.repository.js';
import { SectionRepository } from '../../sections/application/section.repository.js';

/** Checks that the section and collection an article is put in exist (400 otherwise). */
@Injectable()
export class ArticlePlacement {
  constructor(
    private readonly sections: SectionRepository,
    private readonly collections: CollectionRepository,
  ) {}

  async check(sectionId: string, collectionId: string | null, fields = { section: 'sectionId', collection: 'collectionId' }): Promise<void> {
    // Share-locked: a section or collection cannot be deleted while an article goes in, and many articles may
    // go into one section at once.
    if (!(await this.sections.findById(sectionId, { forShare: true }))) {
      throw ValidationError.field(fields.section, `Section ${sectionId} does not exist`);
    }
    if (collectionId !== null && !(await this.collections.findById(collectionId, { forShare: true }))) {
      throw ValidationError.field(fields.collection, `Collection ${collectionId} does not exist`);
    }
  }
}
