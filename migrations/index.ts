import type { Migration } from '#core';
import { Platform1795309200000 } from './1795309200000-platform.js';
import { Articles1795313400000 } from './1795313400000-articles.js';
import { Webhooks1795320000000 } from './1795320000000-webhooks.js';
import { Tasks1795326000000 } from './1795326000000-tasks.js';
import { Feedback1795330000000 } from './1795330000000-feedback.js';
import { SearchSnippets1795336000000 } from './1795336000000-search-snippets.js';
import { LiveRevisions1795340000000 } from './1795340000000-live-revisions.js';
import { WebhookScopes1795344000000 } from './1795344000000-webhook-scopes.js';
import { HelpCenter1795348000000 } from './1795348000000-help-center.js';
import { AuditAndKeyExpiry1795352000000 } from './1795352000000-audit-and-key-expiry.js';
import { Admins1795356000000 } from './1795356000000-admins.js';
import { HelpCenterVersion1795360000000 } from './1795360000000-help-center-version.js';
import { WebhookDisabledReason1795364000000 } from './1795364000000-webhook-disabled-reason.js';
import { HelpCenterChanges1795368000000 } from './1795368000000-help-center-changes.js';

/** Every migration, oldest first. A new migration is added here as well as in its file. */
export const MIGRATIONS: readonly Migration[] = [Platform1795309200000, Articles1795313400000, Webhooks1795320000000, Tasks1795326000000, Feedback1795330000000, SearchSnippets1795336000000, LiveRevisions1795340000000, WebhookScopes1795344000000, HelpCenter1795348000000, AuditAndKeyExpiry1795352000000, Admins1795356000000, HelpCenterVersion1795360000000, WebhookDisabledReason1795364000000, HelpCenterChanges1795368000000];
