import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import { CurrentHelpdesk } from '../../helpdesk/application/current-helpdesk.js';
import { ContentEvents } from '../../shared/application/content-events.js';
import { Collection, generateShortId } from '../domain/collection.js';
import { CollectionPlacement } from './collection-placement.js';
import { CollectionRepository } from './collection.repository.js';

export interface CreateCollectionCommand {
  readonly title: string;
  readonly subtitle?: string | null;
  readonly sectionId?: string | null;
  readonly parentCollectionId?: string | null;
  /** Generated when omitted. */
  readonly shortId?: string;
}

@Injectable()
export class CreateCollectionUseCase {
  constructor(
    private readonly collections: CollectionRepository,
    private readonly placement: CollectionPlacement,
    private readonly helpdesk: CurrentHelpdesk,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateCollectionCommand): Promise<Collection> {
    const helpdesk = await this.helpdesk.get();
    return this.unitOfWork.run(async () => {
      await this.collections.lockTree();
      const placement = await this.placement.resolve(command);
      const collection = Collection.create(
        {
          helpdeskId: helpdesk.id,
          title: command.title,
          subtitle: command.subtitle ?? null,
          shortId: command.shortId ?? (await this.freshShortId()),
          ...placement,
        },
        this.clock.now(),
      );
      await this.collections.insert(collection);
      await this.events.collection('collection.created', collection);
      return collection;
    });
  }

  private async freshShortId(): Promise<string> {
    for (let length = 7; ; length++) {
      const candidate = generateShortId(length);
      if (!(await this.collections.shortIdExists(candidate))) return candidate;
    }
  }
}
