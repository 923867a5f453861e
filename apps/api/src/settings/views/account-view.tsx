import type { SessionView } from '#admin';
import { PASSWORD_HINT } from './auth-views.js';
import type { SettingsContext } from './context.js';
import { Layout } from './layout.js';
import { ActionsHeader, Badge, CsrfField, DataTable, ErrorSummary, type FormErrors, Input, PostButton, Time } from './parts.js';

/** Your name and email, your password, and the sessions you are signed in with. */
export function AccountView({ ctx, sessions, errors }: { ctx: SettingsContext; sessions: readonly SessionView[]; errors?: FormErrors }) {
  const admin = ctx.admin!;
  return (
    <Layout ctx={ctx} title={errors?.length ? 'Error: Your account' : 'Your account'}>
      <h1>Your account</h1>
      <dl class="facts">
        <dt>Name</dt>
        <dd>{admin.name}</dd>
        <dt>Email</dt>
        <dd>{admin.email}</dd>
      </dl>
      <h2 id="password">Change your password</h2>
      <ErrorSummary errors={errors} />
      <form method="post" action={ctx.urls.changePassword()} class="form narrow" novalidate>
        <CsrfField ctx={ctx} />
        <input type="text" name="username" value={admin.email} autocomplete="username" hidden readonly />
        <Input id="current-password" name="current_password" type="password" label="Current password" errors={errors} required maxLength={256} autocomplete="current-password" />
        <Input id="new-password" name="new_password" type="password" label="New password" hint={PASSWORD_HINT} errors={errors} required minLength={12} maxLength={256} autocomplete="new-password" />
        <Input id="new-password-again" name="new_password_again" type="password" label="New password again" errors={errors} required maxLength={256} autocomplete="new-password" />
        <p class="hint">Your other sessions are signed out; this one stays signed in.</p>
        <div class="buttons">
          <button type="submit" class="button primary">
            Change password
          </button>
        </div>
      </form>
      <h2 id="sessions">Your sessions</h2>
      <p>Where you are signed in. A session ends after a while without use, and in any case some hours after signing in.</p>
      <DataTable caption="Sessions, newest first" id="sessions-table">
        <thead>
          <tr>
            <th scope="col">Signed in</th>
            <th scope="col">Last active</th>
            <th scope="col">From</th>
            <th scope="col">Browser</th>
            <th scope="col">Ends at the latest</th>
            <ActionsHeader />
          </tr>
        </thead>
        <tbody>
          {sessions.map((session) => (
            <tr>
              <th scope="row" class="nowrap">
                <Time value={session.createdAt} />
                {session.current ? (
                  <span class="hint">
                    <Badge tone="ok">This session</Badge>
                  </span>
                ) : null}
              </th>
              <td class="nowrap">
                <Time value={session.lastSeenAt} />
              </td>
              <td class="nowrap">{session.ip ?? <span class="muted">unknown</span>}</td>
              <td>{session.userAgent ?? <span class="muted">unknown</span>}</td>
              <td class="nowrap">
                <Time value={session.idleExpiresAt} />
              </td>
              <td>
                {session.current ? (
                  <PostButton ctx={ctx} action={ctx.urls.signOut()} label="Sign out" />
                ) : (
                  <form method="post" action={ctx.urls.revokeSession(session.id)} class="inline-form">
                    <CsrfField ctx={ctx} />
                    <button type="submit" class="button secondary" aria-label={`Sign out the session from ${session.ip ?? 'an unknown address'} started ${session.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`}>
                      Sign out
                    </button>
                  </form>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </DataTable>
    </Layout>
  );
}
