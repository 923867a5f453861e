import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '#core';
import { ArticleRepository } from '../../articles/application/article.repository.js';
import { ContentEvents } from '../../shared/application/content-events.js';
import { requireSection } from './section-access.js';
import { SectionRepository } from './section.repository.js';

/** Deletes an empty, non-default section: no collections and no articles, trashed ones included (409 otherwise). */
@Injectable()
export class DeleteSectionUseCase {
  constructor(
    private readonly sections: SectionRepository,
    private readonly articles: ArticleRepository,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  execute(id: string): Promise<void> {
    return this.unitOfWork.run(async () => {
      // Locked: it must not become the default, or gain a collection or article, between the check and the delete.
      const section = await requireSection(this.sections, id, { forUpdate: true });
      section.assertDeletable({ collections: await this.sections.countCollections(id), articles: await this.articles.countInSection(id) });
      await this.sections.delete(id);
      // The section as it was: its last state.
      await this.events.section('section.deleted', section);
    });
  }
}
