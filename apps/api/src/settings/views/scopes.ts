import { type Scope, SCOPES } from '#core';

/** What each scope lets a key do, in the words of the create form. */
export const SCOPE_DESCRIPTIONS: Readonly<Record<Scope, string>> = {
  'content:read': 'Read sections, collections, published articles, tasks and the helpdesk settings.',
  'content:write': 'Create and change sections, collections, articles (drafts included), help center users, tasks and their outputs. Includes content:read.',
  'content:publish': 'Publish, unpublish, trash and restore published articles. Includes content:read.',
  'analytics:read': 'Read reader feedback on articles.',
  'conversations:read': 'Reserved for conversation data; no operation needs it yet.',
  'webhooks:manage': 'Create, change and delete webhook endpoints, and read their deliveries.',
};

export const SCOPE_LIST: readonly Scope[] = SCOPES;
