import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import { ContentEvents } from '../../shared/application/content-events.js';
import type { Section } from '../domain/section.js';
import { requireSection } from './section-access.js';
import { SectionRepository } from './section.repository.js';

export interface UpdateSectionCommand {
  readonly name?: string;
  readonly position?: number;
  /** true makes this the default section (the previous default stops being it); false is refused. */
  readonly isDefault?: boolean;
}

@Injectable()
export class UpdateSectionUseCase {
  constructor(
    private readonly sections: SectionRepository,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute(id: string, command: UpdateSectionCommand): Promise<Section> {
    return this.unitOfWork.run(async () => {
      // The default lock first (then rows), the same order as every other default change, so two cannot deadlock;
      // without it two concurrent switches both clear the old default and collide on the one-default index (500).
      if (command.isDefault === true) await this.sections.lockDefault();
      const section = await requireSection(this.sections, id, { forUpdate: true });
      const now = this.clock.now();
      if (command.isDefault === true && !section.isDefault) {
        const previous = await this.sections.findDefault();
        if (previous) {
          previous.clearDefault(now);
          await this.sections.update(previous);
          await this.events.section('section.updated', previous);
        }
      }
      const before = section.snapshot();
      section.update(command, now);
      await this.sections.update(section);
      const after = section.snapshot();
      if (before.name !== after.name || before.position !== after.position || before.isDefault !== after.isDefault) {
        await this.events.section('section.updated', section);
      }
      return section;
    });
  }
}
