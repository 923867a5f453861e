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
      const section = await this.getSection.execute(id);
      section.assertDeletable({ collections: await this.sections.countCollections(id) });
      await this.sections.delete(id);
    });
  }
}
