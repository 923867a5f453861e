import { Injectable } from '@nestjs/common';
import { EventOutbox, type EventType, HttpConfig } from '#core';
import { ArticleReadRepository } from '../../articles/application/article-read.repository.js';
import type { Collection } from '../../collections/domain/collection.js';
import type { Section } from '../../sections/domain/section.js';
import { articleView, collectionView, sectionView } from './resource-views.js';

export type ArticleEvent = Extract<EventType, `article.${string}`>;
type CollectionEvent = Extract<EventType, `collection.${string}`>;
type SectionEvent = Extract<EventType, `section.${string}`>;

/**
 * Records content events in the outbox, inside the use case's unit of work; `data` is the resource as the API
 * returns it (articles as with format=html), taken after the change (before it, for a deletion).
 */
@Injectable()
export class ContentEvents {
  constructor(
    private readonly outbox: EventOutbox,
    private readonly views: ArticleReadRepository,
    private readonly http: HttpConfig,
  ) {}

  async article(type: ArticleEvent, articleId: string): Promise<void> {
    const record = await this.views.findRecord(articleId, 'html');
    if (!record) throw new Error(`Article ${articleId} vanished inside its own transaction`);
    await this.outbox.record(type, articleView(record, 'html', this.http.publicUrl));
  }

  async collection(type: CollectionEvent, collection: Collection): Promise<void> {
    await this.outbox.record(type, collectionView(collection));
  }

  async section(type: SectionEvent, section: Section): Promise<void> {
    await this.outbox.record(type, sectionView(section));
  }
}
