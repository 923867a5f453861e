import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import type { Helpdesk, HelpdeskChanges } from '../domain/helpdesk.js';
import { CurrentHelpdesk } from './current-helpdesk.js';
import { HelpdeskRepository } from './helpdesk.repository.js';

/** Name, enabled languages and branding (logo URL, accent colour, footer links); omitted fields stay as they are. */
export type UpdateHelpdeskCommand = HelpdeskChanges;

@Injectable()
export class UpdateHelpdeskUseCase {
  constructor(
    private readonly current: CurrentHelpdesk,
    private readonly helpdesks: HelpdeskRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute(command: UpdateHelpdeskCommand): Promise<Helpdesk> {
    return this.unitOfWork.run(async () => {
      // Locked: the save writes every field back, which must not undo a concurrent PATCH of another one.
      const helpdesk = await this.current.get({ forUpdate: true });
      helpdesk.update(command, this.clock.now());
      await this.helpdesks.update(helpdesk);
      return helpdesk;
    });
  }
}
