import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import { CurrentHelpdesk } from '../../helpdesk/application/current-helpdesk.js';
import { ContentEvents } from '../../shared/application/content-events.js';
import type { TranslationStatus } from '../../shared/domain/translation.js';
import type { CollectionTranslation } from '../domain/collection.js';
import { requireCollection } from './collection-access.js';
import { CollectionRepository } from './collection.repository.js';

export interface PutCollectionTranslationCommand {
  readonly title: string;
  readonly subtitle?: string | null;
  readonly status?: TranslationStatus;
}

/** Creates or replaces a collection's translation into one of the helpdesk's languages. */
@Injectable()
export class PutCollectionTranslationUseCase {
  constructor(
    private readonly collections: CollectionRepository,
    private readonly helpdesk: CurrentHelpdesk,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, language: string, command: PutCollectionTranslationCommand): Promise<{ translation: CollectionTranslation; created: boolean }> {
    (await this.helpdesk.get()).assertTranslationLanguage(language);
    return this.unitOfWork.run(async () => {
      // Locked, so a concurrent PUT of the same language sees this one's translation and replaces it (one id, one 201).
      const collection = await requireCollection(this.collections, id, { forUpdate: true });
      const result = collection.putTranslation(
        language,
        { title: command.title, subtitle: command.subtitle ?? null, status: command.status ?? 'published' },
        this.clock.now(),
      );
      await this.collections.update(collection);
      await this.events.collection('collection.updated', collection);
      return result;
    });
  }
}
