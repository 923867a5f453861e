import { Injectable } from '@nestjs/common';
import { HelpCenterVersionRepository } from './help-center-version.repository.js';

/**
 * Folds the recorded content changes into one record of the same weight, so reading the content version stays a
 * read of a few rows however many changes were made (periodic; the version itself does not change).
 */
@Injectable()
export class CompactHelpCenterChangesUseCase {
  constructor(private readonly versions: HelpCenterVersionRepository) {}

  execute(): Promise<number> {
    return this.versions.compact();
  }
}
