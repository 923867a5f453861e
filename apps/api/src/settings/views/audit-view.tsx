import type { AuditActor, AuditEntry, CursorPage } from '#core';
import type { SettingsContext } from './context.js';
import { Layout } from './layout.js';
import { DataTable, Time } from './parts.js';

/** What each recorded action means, for people. */
const ACTIONS: Readonly<Record<string, string>> = {
  'admin.setup': 'Created the first admin (setup link)',
  'admin.signed_in': 'Signed in',
  'admin.sign_in_failed': 'Sign-in refused',
  'admin.signed_out': 'Signed out',
  'admin.created': 'Added an admin',
  'admin.removed': 'Removed an admin',
  'admin.password_changed': 'Changed their password',
  'admin.password_reset': 'Reset an admin’s password',
  'admin.session_revoked': 'Signed out a session',
  'api_key.created': 'Created an API key',
  'api_key.revoked': 'Revoked an API key',
  'webhook.created': 'Added a webhook endpoint',
  'webhook.updated': 'Changed a webhook endpoint',
  'webhook.deleted': 'Deleted a webhook endpoint',
  'webhook.enabled': 'Enabled a webhook endpoint',
  'webhook.disabled': 'Disabled a webhook endpoint',
  'webhook.secret_rotated': 'Rotated a webhook signing secret',
  'webhook.test_sent': 'Sent a test event',
  'webhook.delivery_retried': 'Retried a webhook delivery',
  'webhook.auto_disabled': 'Disabled a failing webhook endpoint',
};

export function actorText(actor: AuditActor): string {
  switch (actor.kind) {
    case 'admin':
      // A refused sign-in names nobody: the email tried is in the details.
      return actor.label ?? actor.id ?? 'not signed in';
    case 'api_key':
      return `API key ${actor.label ?? actor.id ?? ''}`.trim();
    case 'cli':
      return actor.label ?? 'command line';
    case 'system':
      return 'the service';
  }
}

function detailText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join(', ');
  return JSON.stringify(value);
}

function Details({ details }: { details: Record<string, unknown> }) {
  const entries = Object.entries(details);
  if (entries.length === 0) return null;
  return (
    <dl class="facts">
      {entries.map(([name, value]) => (
        <>
          <dt>{name}</dt>
          <dd>{detailText(value)}</dd>
        </>
      ))}
    </dl>
  );
}

/** What an entry is about: a link to a webhook endpoint's page (gone once deleted), else the ID or the kind. */
function Target({ ctx, entry }: { ctx: SettingsContext; entry: AuditEntry }) {
  if (!entry.targetId) return <span class="muted">{entry.targetType}</span>;
  if (entry.targetType === 'webhook_endpoint' && entry.action !== 'webhook.deleted') {
    return (
      <a href={ctx.urls.webhook(entry.targetId)}>
        <code>{entry.targetId}</code>
      </a>
    );
  }
  return <code>{entry.targetId}</code>;
}

/** Sign-ins, key, webhook and admin changes: who, what, when, from which address; newest first, paged. */
export function AuditView({ ctx, page, nextPage }: { ctx: SettingsContext; page: CursorPage<AuditEntry>; nextPage: string | null }) {
  return (
    <Layout ctx={ctx} title="Audit log">
      <h1>Audit log</h1>
      <p class="lead">Every sign-in, and every change to API keys, webhooks and admins, whoever made it (here, with an API key, or on the command line).</p>
      {page.results.length === 0 ? (
        <p class="empty">Nothing recorded yet.</p>
      ) : (
        <DataTable caption="Entries, newest first" id="audit">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Target</th>
              <th scope="col">From</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {page.results.map((entry) => (
              <tr data-action={entry.action}>
                <td class="nowrap">
                  <Time value={entry.occurredAt} />
                </td>
                <td>{actorText(entry.actor)}</td>
                <th scope="row">
                  {ACTIONS[entry.action] ?? entry.action}
                  <span class="hint">
                    <code>{entry.action}</code>
                  </span>
                </th>
                <td>
                  <Target ctx={ctx} entry={entry} />
                </td>
                <td class="nowrap">{entry.actor.ip ?? <span class="muted">—</span>}</td>
                <td>
                  <Details details={entry.details} />
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
      {nextPage ? (
        <nav class="pagination" aria-label="More entries">
          <a href={nextPage}>Older entries</a>
        </nav>
      ) : null}
    </Layout>
  );
}
