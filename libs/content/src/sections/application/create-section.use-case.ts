import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import { CurrentHelpdesk } from '../../helpdesk/application/current-helpdesk.js';
import { ContentEvents } from '../../shared/application/content-events.js';
import { Section } from '../domain/section.js';
import { SectionRepository } from './section.repository.js';

export interface CreateSectionCommand {
  readonly name: string;
  /** Defaults to after the last section. */
  readonly position?: number;
  readonly isDefault?: boolean;
}

@Injectable()
export class CreateSectionUseCase {
  constructor(
    private readonly sections: SectionRepository,
    private readonly helpdesk: CurrentHelpdesk,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateSectionCommand): Promise<Section> {
    const helpdesk = await this.helpdesk.get();
    return this.unitOfWork.run(async () => {
      const now = this.clock.now();
      let position = command.position ?? null;
      if (position === null) {
        // Serialised, so sections created at once each go after the last one (and before the default lock
        // below, in the same order for every creation, so two cannot deadlock).
        await this.sections.lockNextPosition();
        position = await this.sections.nextPosition();
      }
      const section = Section.create({ helpdeskId: helpdesk.id, name: command.name, position }, now);
      if (command.isDefault) {
        // Serialised: two concurrent new defaults would each clear the old one and collide on the one-default index.
        await this.sections.lockDefault();
        const previous = await this.sections.findDefault();
        if (previous) {
          previous.clearDefault(now);
          await this.sections.update(previous);
          await this.events.section('section.updated', previous);
        }
        section.update({ isDefault: true }, now);
      }
      await this.sections.insert(section);
      await this.events.section('section.created', section);
      return section;
    });
  }
}
