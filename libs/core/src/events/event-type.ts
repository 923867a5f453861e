/** Every event the service emits (CONTRACT §9). Values are part of the API: never rename one. */
export const EVENT_TYPES = [
  'article.created',
  'article.updated',
  'article.published',
  'article.unpublished',
  'article.trashed',
  'article.restored',
  'article.moved',
  'collection.created',
  'collection.updated',
  'collection.deleted',
  'section.created',
  'section.updated',
  'section.deleted',
  'feedback.created',
  'feedback.updated',
  'task.completed',
  'task.failed',
  'webhook.test',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Subscribes to every event type. */
export const ALL_EVENTS = '*';

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
