import type { EventType } from '#core';

/** What each event tells a receiver, for the events checklist. */
export const EVENT_DESCRIPTIONS: Readonly<Record<EventType, string>> = {
  'article.created': 'An article was created.',
  'article.updated': 'An article changed.',
  'article.published': 'An article was published.',
  'article.unpublished': 'A published article was taken offline.',
  'article.trashed': 'An article was moved to the trash.',
  'article.restored': 'An article came back from the trash.',
  'article.moved': 'An article moved to another section or collection.',
  'collection.created': 'A collection was created.',
  'collection.updated': 'A collection changed.',
  'collection.deleted': 'A collection was deleted.',
  'section.created': 'A section was created.',
  'section.updated': 'A section changed.',
  'section.deleted': 'A section was deleted.',
  'feedback.created': 'A reader left feedback on an article.',
  'feedback.updated': 'Feedback changed.',
  'task.completed': 'An AI task finished.',
  'task.failed': 'An AI task failed.',
  'webhook.test': 'A test event, sent on request.',
};
