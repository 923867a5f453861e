import { Injectable } from '@nestjs/common';
import { Clock } from '#core';
import type { Helpdesk } from '../domain/helpdesk.js';
import { CurrentHelpdesk } from './current-helpdesk.js';
import { HelpdeskRepository } from './helpdesk.repository.js';

export interface UpdateHelpdeskCommand {
  readonly name?: string;
  readonly languages?: readonly string[];
}

@Injectable()
export class UpdateHelpdeskUseCase {
  constructor(
    private readonly current: CurrentHelpdesk,
    private readonly helpdesks: HelpdeskRepository,
    private readonly clock: Clock,
  ) {}

  async execute(command: UpdateHelpdeskCommand): Promise<Helpdesk> {
    const helpdesk = await this.current.get();
    helpdesk.update(command, this.clock.now());
    await this.helpdesks.update(helpdesk);
    return helpdesk;
  }
}
