import { Injectable } from '@nestjs/common';
import { HelpCenterVersionRepository } from './help-center-version.repository.js';

/**
 * The help center's content version (an opaque, increasing number as text): it changes with every committed change
 * to what the public pages show, on every process alike. A page rendered after reading version n is still current
 * while the version is n, so a process can keep it and answer the next request for it with this one read (see the
 * pages' cache).
 */
@Injectable()
export class GetHelpCenterVersionUseCase {
  constructor(private readonly versions: HelpCenterVersionRepository) {}

  execute(): Promise<string> {
    return this.versions.current();
  }
}
