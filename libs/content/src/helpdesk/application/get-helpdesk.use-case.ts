import { Injectable } from '@nestjs/common';
import type { Helpdesk } from '../domain/helpdesk.js';
import { CurrentHelpdesk } from './current-helpdesk.js';

@Injectable()
export class GetHelpdeskUseCase {
  constructor(private readonly current: CurrentHelpdesk) {}

  execute(): Promise<Helpdesk> {
    return this.current.get();
  }
}
