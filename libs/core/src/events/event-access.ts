import { effectiveScopes, type Scope } from '../access/scope.js';
import type { EventType } from './event-type.js';

/**
 * What a key must be able to read to receive an event, since an event carries the resource as the API returns it:
 * any one of the scopes listed (an empty list: anyone). Article events carry drafts and unpublished articles, which
 * only keys with content:write or content:publish read; feedback carries readers' emails (analytics:read); tasks
 * carry instructions and proposed content (content:write).
 */
export const EVENT_READ_SCOPES: Readonly<Record<EventType, readonly Scope[]>> = {
  'article.created': ['content:write', 'content:publish'],
  'article.updated': ['content:write', 'content:publish'],
  'article.published': ['content:write', 'content:publish'],
  'article.unpublished': ['content:write', 'content:publish'],
  'article.trashed': ['content:write', 'content:publish'],
  'article.restored': ['content:write', 'content:publish'],
  'article.moved': ['content:write', 'content:publish'],
  'collection.created': ['content:read'],
  'collection.updated': ['content:read'],
  'collection.deleted': ['content:read'],
  'section.created': ['content:read'],
  'section.updated': ['content:read'],
  'section.deleted': ['content:read'],
  'feedback.created': ['analytics:read'],
  'feedback.updated': ['analytics:read'],
  'task.completed': ['content:write'],
  'task.failed': ['content:write'],
  'webhook.test': [],
};

/** Whether a key with `granted` scopes (null: a legacy full-access key) may receive events of `type`. */
export function mayReceiveEvent(type: EventType, granted: readonly Scope[] | null): boolean {
  const needed = EVENT_READ_SCOPES[type];
  if (needed.length === 0 || granted === null) return true;
  const scopes = effectiveScopes(granted);
  return needed.some((scope) => scopes.has(scope));
}
