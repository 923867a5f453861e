import { Injectable } from '@nestjs/common';
import { HelpCenterReadRepository } from './help-center-read.repository.js';

/**
 * The help center's content version (an opaque, increasing number as text): it changes at the commit of every
 * change to what the public pages show, in commit order, on every process alike. A page rendered after reading
 * version n is still current while the version is n, so a process can keep it and answer the next request for it
 * with this one read (see the pages' cache).
 */
@Injectable()
export class GetHelpCenterVersionUseCase {
  constructor(private readonly reads: HelpCenterReadRepository) {}

  execute(): Promise<string> {
    return this.reads.contentVersion();
  }
}
