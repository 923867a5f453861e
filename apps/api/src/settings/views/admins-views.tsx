import type { AdminView } from '#admin';
import { PASSWORD_HINT } from './auth-views.js';
import type { SettingsContext } from './context.js';
import { Layout } from './layout.js';
import { ActionsHeader, countOf, CsrfField, DataTable, ErrorSummary, type FormErrors, Input, PageHead, SecretField, Time } from './parts.js';

export function AdminsView({ ctx, admins }: { ctx: SettingsContext; admins: readonly AdminView[] }) {
  return (
    <Layout ctx={ctx} title="Admins">
      <PageHead title="Admins" action={{ href: ctx.urls.newAdmin(), label: 'Add an admin' }} />
      <p class="lead">Admins sign in here to manage API keys, webhooks and other admins. There is always at least one.</p>
      <DataTable caption={countOf(admins.length, 'admin', 'admins')} id="admins">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Added</th>
            <ActionsHeader />
          </tr>
        </thead>
        <tbody>
          {admins.map((admin) => (
            <tr>
              <th scope="row">
                {admin.name}
                {admin.id === ctx.admin?.id ? <span class="muted"> (you)</span> : null}
              </th>
              <td>{admin.email}</td>
              <td class="nowrap">
                <Time value={admin.createdAt} />
              </td>
              <td>
                {admins.length > 1 ? (
                  <a href={ctx.urls.removeAdmin(admin.id)} aria-label={`Remove ${admin.name} (${admin.email})`}>
                    Remove
                  </a>
                ) : (
                  <span class="muted">The last admin</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </DataTable>
    </Layout>
  );
}

export interface NewAdminValues {
  readonly name: string;
  readonly email: string;
}

export function NewAdminView({ ctx, values, errors }: { ctx: SettingsContext; values: NewAdminValues; errors?: FormErrors }) {
  return (
    <Layout ctx={ctx} title={errors?.length ? 'Error: Add an admin' : 'Add an admin'}>
      <h1>Add an admin</h1>
      <ErrorSummary errors={errors} />
      <form method="post" action={ctx.urls.newAdmin()} class="form" novalidate>
        <CsrfField ctx={ctx} />
        <Input id="admin-name" name="name" label="Name" value={values.name} errors={errors} required maxLength={200} autocomplete="off" />
        <Input id="admin-email" name="email" type="email" label="Email" value={values.email} errors={errors} required maxLength={320} autocomplete="off" spellcheck={false} />
        <Input
          id="admin-password"
          name="password"
          type="password"
          label="Password (optional)"
          hint={`Leave empty to generate a strong password, shown once for you to pass on. ${PASSWORD_HINT}`}
          errors={errors}
          maxLength={256}
          autocomplete="new-password"
        />
        <div class="buttons">
          <button type="submit" class="button primary">
            Add admin
          </button>
          <a href={ctx.urls.admins()}>Cancel</a>
        </div>
      </form>
    </Layout>
  );
}

export function AdminCreatedView({ ctx, admin, generatedPassword }: { ctx: SettingsContext; admin: AdminView; generatedPassword: string | null }) {
  return (
    <Layout ctx={ctx} title="Admin added">
      <h1>Admin added: {admin.name}</h1>
      <p>
        {admin.email} can sign in at <code>{`${ctx.urls.publicUrl}/settings/sign-in`}</code>.
      </p>
      {generatedPassword ? (
        <>
          <div class="warning">
            <strong>Copy the password now</strong> and pass it on privately. It is shown only this once; they can change it on their account page.
          </div>
          <SecretField id="generated-password" label="Generated password" value={generatedPassword} hint="Select the field and copy it, or use the Copy button." />
        </>
      ) : (
        <p>They sign in with the password you chose; they can change it on their account page.</p>
      )}
      <p>
        <a class="button secondary" href={ctx.urls.admins()}>
          Done: back to the admins
        </a>
      </p>
    </Layout>
  );
}

export function RemoveAdminView({ ctx, admin, errors }: { ctx: SettingsContext; admin: AdminView; errors?: FormErrors }) {
  const self = admin.id === ctx.admin?.id;
  return (
    <Layout ctx={ctx} title={errors?.length ? 'Error: Remove an admin' : 'Remove an admin'}>
      <h1>
        Remove {admin.name}
        {self ? ' (you)' : ''}?
      </h1>
      <ErrorSummary errors={errors} />
      <div class="danger-box">
        <p>
          {admin.email} {self ? '(your own account) ' : ''}can no longer sign in, and every session of theirs ends at once. API keys they created keep working until revoked.
        </p>
      </div>
      <form method="post" action={ctx.urls.removeAdmin(admin.id)}>
        <CsrfField ctx={ctx} />
        <div class="buttons">
          <button type="submit" class="button danger" id="remove-admin">
            Remove admin
          </button>
          <a href={ctx.urls.admins()}>Cancel</a>
        </div>
      </form>
    </Layout>
  );
}
