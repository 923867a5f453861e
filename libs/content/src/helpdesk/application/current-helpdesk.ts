import { Injectable } from '@nestjs/common';
import type { Helpdesk } from '../domain/helpdesk.js';
import { HelpdeskRepository } from './helpdesk.repository.js';

/** The deployment's helpdesk; it always exists once the process has started (EnsureHelpdeskUseCase). */
@Injectable()
export class CurrentHelpdesk {
  constructor(private readonly helpdesks: HelpdeskRepository) {}

  async get(options?: { forUpdate?: boolean }): Promise<Helpdesk> {
    const helpdesk = await this.helpdesks.find(options);
    if (!helpdesk) throw new Error('The helpdesk has not been created; start-up should have created it');
    return helpdesk;
  }
}
