import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '#core';
import { GetSectionUseCase } from './get-section.use-case.js';
import { SectionRepository } from './section.repository.js';

/** Deletes an empty, non-default section (409 otherwise). */
@Injectable()
export class DeleteSectionUseCase {
  constructor(
    private readonly sections: SectionRepository,
    private readonly getSection: GetSectionUseCase,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  execute(id: string): Promise<void> {
    return this.unitOfWork.run(async () => {
      // Locked: it must not become the default, or gain a collection, between the check and the delete.
      const section = await this.getSection.execute(id, { forUpdate: true });
      section.assertDeletable({ collections: await this.sections.countCollections(id) });
      await this.sections.delete(id);
    });
  }
}
