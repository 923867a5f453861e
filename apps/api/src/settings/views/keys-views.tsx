import type { ApiKey } from '#gateway';
import type { SettingsContext } from './context.js';
import { Layout } from './layout.js';
import { ActionsHeader, Badge, CheckboxGroup, countOf, CsrfField, DataTable, ErrorSummary, type FormErrors, Input, PageHead, SecretField, Time } from './parts.js';
import { SCOPE_DESCRIPTIONS, SCOPE_LIST } from './scopes.js';

export function keyLabel(key: ApiKey): string {
  return `hck_…${key.props.lastFour}`;
}

function KeyStatus({ apiKey, now }: { apiKey: ApiKey; now: Date }) {
  if (apiKey.props.revokedAt) return <Badge tone="muted">Revoked</Badge>;
  if (apiKey.expiredAt(now)) return <Badge tone="bad">Expired</Badge>;
  return <Badge tone="ok">Active</Badge>;
}

function Scopes({ apiKey }: { apiKey: ApiKey }) {
  const { scopes } = apiKey.props;
  if (scopes === null) {
    return (
      <>
        <Badge tone="warn">Legacy: full access</Badge>
        <span class="hint">Made before scopes; may do everything. Replace it with a scoped key.</span>
      </>
    );
  }
  return (
    <ul class="scopes">
      {scopes.map((scope) => (
        <li>
          <code>{scope}</code>
        </li>
      ))}
    </ul>
  );
}

/** Every key, newest first: name, the last four characters, scopes, who made it, when, last use, expiry, state. */
export function KeysView({ ctx, keys, now }: { ctx: SettingsContext; keys: readonly ApiKey[]; now: Date }) {
  const sorted = [...keys].sort((a, b) => b.props.createdAt.getTime() - a.props.createdAt.getTime());
  return (
    <Layout ctx={ctx} title="API keys">
      <PageHead title="API keys" action={{ href: ctx.urls.newKey(), label: 'Create a key' }} />
      <p class="lead">
        Keys let servers call the API with <code>Authorization: Bearer hck_…</code>. Each key does only what its scopes allow.
      </p>
      {sorted.length === 0 ? (
        <p class="empty">There are no keys yet. Create one to call the API.</p>
      ) : (
        <DataTable caption={countOf(sorted.length, 'key', 'keys')} id="keys">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Scopes</th>
              <th scope="col">Created by</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Expires</th>
              <th scope="col">State</th>
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {sorted.map((key) => (
              <tr>
                <th scope="row">{key.props.name}</th>
                <td class="nowrap">
                  <code>{keyLabel(key)}</code>
                </td>
                <td>
                  <Scopes apiKey={key} />
                </td>
                <td>{key.props.createdBy ?? <span class="muted">unknown</span>}</td>
                <td>
                  <Time value={key.props.createdAt} />
                </td>
                <td>
                  <Time value={key.props.lastUsedAt} empty="never" />
                </td>
                <td>
                  <Time value={key.props.expiresAt} empty="never" />
                </td>
                <td>
                  <KeyStatus apiKey={key} now={now} />
                  {key.props.revokedAt ? (
                    <span class="hint">
                      <Time value={key.props.revokedAt} />
                    </span>
                  ) : null}
                </td>
                <td>
                  {key.props.revokedAt ? null : (
                    <a href={ctx.urls.revokeKey(key.id)} aria-label={`Revoke ${key.props.name} (${keyLabel(key)})`}>
                      Revoke
                    </a>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
    </Layout>
  );
}

export interface NewKeyValues {
  readonly name: string;
  readonly scopes: readonly string[];
  readonly expiresOn: string;
}

export const EMPTY_KEY_VALUES: NewKeyValues = { name: '', scopes: [], expiresOn: '' };

/** Name, scopes (with what each allows and what it implies), an optional last day. */
export function NewKeyView({ ctx, values, errors, today }: { ctx: SettingsContext; values: NewKeyValues; errors?: FormErrors; today: string }) {
  return (
    <Layout ctx={ctx} title={errors?.length ? 'Error: Create a key' : 'Create a key'}>
      <h1>Create a key</h1>
      <ErrorSummary errors={errors} />
      <form method="post" action={ctx.urls.newKey()} class="form" novalidate>
        <CsrfField ctx={ctx} />
        <Input id="key-name" name="name" label="Name" hint="What uses the key, e.g. “Zapier” or “CI deploy”. Shown in lists and the audit log." value={values.name} errors={errors} required maxLength={200} autocomplete="off" />
        <CheckboxGroup
          id="key-scopes"
          name="scopes"
          legend="Scopes"
          hint={
            <>
              <p>Choose what the key may do; give it no more than it needs.</p>
              <p>
                <code>content:write</code> and <code>content:publish</code> each include <code>content:read</code>. A key with neither sees only published articles: drafts and trashed ones are
                not found for it.
              </p>
            </>
          }
          options={SCOPE_LIST.map((scope) => ({ value: scope, label: <code>{scope}</code>, hint: SCOPE_DESCRIPTIONS[scope] }))}
          checked={values.scopes}
          errors={errors}
        />
        <Input
          id="key-expires"
          name="expires_on"
          type="date"
          label="Expires (optional)"
          hint="The key stops working at the end of this day (UTC). Leave empty for a key that does not expire."
          value={values.expiresOn}
          errors={errors}
          min={today}
        />
        <div class="buttons">
          <button type="submit" class="button primary">
            Create key
          </button>
          <a href={ctx.urls.keys()}>Cancel</a>
        </div>
      </form>
    </Layout>
  );
}

/** The new key, this once: it is stored only as a hash and never shown again. */
export function KeyCreatedView({ ctx, apiKey, plain }: { ctx: SettingsContext; apiKey: ApiKey; plain: string }) {
  return (
    <Layout ctx={ctx} title="Key created">
      <h1>Key created: {apiKey.props.name}</h1>
      <div class="warning">
        <strong>Copy the key now.</strong> It is shown only this once: only a hash of it is stored, so it can't be shown again. If you lose it, revoke it and create another.
      </div>
      <SecretField id="new-key" label="Your new API key" value={plain} hint="Select the field and copy it, or use the Copy button. Store it in your secret manager." />
      <dl class="facts">
        <dt>Scopes</dt>
        <dd>{apiKey.props.scopes === null ? 'Full access (legacy)' : apiKey.props.scopes.join(', ')}</dd>
        <dt>Expires</dt>
        <dd>
          <Time value={apiKey.props.expiresAt} empty="never" />
        </dd>
      </dl>
      <p>
        Use it as <code>Authorization: Bearer &lt;key&gt;</code>, e.g. <code>curl -H "Authorization: Bearer $HELP_CENTER_KEY" {ctx.urls.publicUrl}/v1/sections</code>.
      </p>
      <p>
        <a class="button secondary" href={ctx.urls.keys()}>
          Done: back to the keys
        </a>
      </p>
    </Layout>
  );
}

/** Revoke, after a confirmation: the next request with the key gets 401. */
export function RevokeKeyView({ ctx, apiKey }: { ctx: SettingsContext; apiKey: ApiKey }) {
  const revoked = apiKey.props.revokedAt !== null;
  return (
    <Layout ctx={ctx} title="Revoke a key">
      <h1>Revoke “{apiKey.props.name}”?</h1>
      {revoked ? (
        <>
          <p>
            This key (<code>{keyLabel(apiKey)}</code>) was revoked on <Time value={apiKey.props.revokedAt} />.
          </p>
          <p>
            <a href={ctx.urls.keys()}>Back to the keys</a>
          </p>
        </>
      ) : (
        <>
          <div class="danger-box">
            <p>
              Requests with <code>{keyLabel(apiKey)}</code> will get <strong>401 Unauthorized</strong> at once, on every server. This can't be undone.
            </p>
          </div>
          <form method="post" action={ctx.urls.revokeKey(apiKey.id)}>
            <CsrfField ctx={ctx} />
            <div class="buttons">
              <button type="submit" class="button danger">
                Revoke key
              </button>
              <a href={ctx.urls.keys()}>Cancel</a>
            </div>
          </form>
        </>
      )}
    </Layout>
  );
}
