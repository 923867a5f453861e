import { Injectable } from '@nestjs/common';
import { Clock, HelpdeskConfig, UnitOfWork } from '#core';
import { SectionRepository } from '../../sections/application/section.repository.js';
import { DEFAULT_SECTION_NAME, Section } from '../../sections/domain/section.js';
import { Helpdesk } from '../domain/helpdesk.js';
import { HelpdeskRepository } from './helpdesk.repository.js';

/**
 * First start of a deployment: creates its helpdesk (languages from HELPDESK_LANGUAGES) and the default
 * section "General". Safe when several processes start at once: only one insert wins.
 */
@Injectable()
export class EnsureHelpdeskUseCase {
  constructor(
    private readonly helpdesks: HelpdeskRepository,
    private readonly sections: SectionRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: HelpdeskConfig,
  ) {}

  async execute(): Promise<Helpdesk> {
    const existing = await this.helpdesks.find();
    if (existing) return existing;
    const now = this.clock.now();
    const helpdesk = Helpdesk.create(this.config.languages, now);
    return this.unitOfWork.run(async () => {
      if (await this.helpdesks.insertIfAbsent(helpdesk)) {
        await this.sections.insert(Section.create({ helpdeskId: helpdesk.id, name: DEFAULT_SECTION_NAME, position: 0, isDefault: true }, now));
      }
      // This insert's helpdesk, or the one a concurrent start committed (the insert above waited for it).
      return (await this.helpdesks.find())!;
    });
  }
}
