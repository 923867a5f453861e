import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import { CurrentHelpdesk } from '../../helpdesk/application/current-helpdesk.js';
import { ContentEvents } from '../../shared/application/content-events.js';
import type { TranslationStatus } from '../../shared/domain/translation.js';
import type { SectionTranslation } from '../domain/section.js';
import { requireSection } from './section-access.js';
import { SectionRepository } from './section.repository.js';

export interface PutSectionTranslationCommand {
  readonly name: string;
  readonly status?: TranslationStatus;
}

/** Creates or replaces a section's translation into one of the helpdesk's languages. */
@Injectable()
export class PutSectionTranslationUseCase {
  constructor(
    private readonly sections: SectionRepository,
    private readonly helpdesk: CurrentHelpdesk,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, language: string, command: PutSectionTranslationCommand): Promise<{ translation: SectionTranslation; created: boolean }> {
    (await this.helpdesk.get()).assertTranslationLanguage(language);
    return this.unitOfWork.run(async () => {
      // Locked, so a concurrent PUT of the same language sees this one's translation and replaces it (one id, one 201).
      const section = await requireSection(this.sections, id, { forUpdate: true });
      const result = section.putTranslation(language, { name: command.name, status: command.status ?? 'published' }, this.clock.now());
      await this.sections.update(section);
      await this.events.section('section.updated', section);
      return result;
    });
  }
}
