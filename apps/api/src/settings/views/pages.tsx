import type { AdminView, SessionView } from '#admin';
import type { AuditEntry, CursorPage } from '#core';
import type { ApiKey } from '#gateway';
import type { RotatedWebhookSecretView, WebhookDeliveryDetailView, WebhookDeliveryView, WebhookEndpointView, WebhookEndpointWithSecretView } from '#webhooks';
import { renderDocument } from '../../common/html/render.js';
import { AccountView } from './account-view.js';
import { AdminCreatedView, AdminsView, type NewAdminValues, NewAdminView, RemoveAdminView } from './admins-views.js';
import { AuditView } from './audit-view.js';
import { SetupUnavailableView, type SetupValues, SetupView, SignInView } from './auth-views.js';
import type { SettingsContext } from './context.js';
import { ErrorView, type SettingsErrorPage } from './error-view.js';
import { KeyCreatedView, KeysView, type NewKeyValues, NewKeyView, RevokeKeyView } from './keys-views.js';
import type { FormErrors } from './parts.js';
import { DeleteWebhookView, DeliveryView, WebhookDetailView, type WebhookFormValues, WebhookFormView, WebhookSecretView, WebhooksView } from './webhooks-views.js';

/** Each settings page as an HTML document (what the controllers send). */
export const renderSettings = {
  setup: (ctx: SettingsContext, token: string, values: SetupValues, errors?: FormErrors) => renderDocument(<SetupView ctx={ctx} token={token} values={values} errors={errors} />),
  setupUnavailable: (ctx: SettingsContext) => renderDocument(<SetupUnavailableView ctx={ctx} />),
  signIn: (ctx: SettingsContext, next: string | undefined, email: string, errors?: FormErrors) => renderDocument(<SignInView ctx={ctx} next={next} email={email} errors={errors} />),

  keys: (ctx: SettingsContext, keys: readonly ApiKey[], now: Date) => renderDocument(<KeysView ctx={ctx} keys={keys} now={now} />),
  newKey: (ctx: SettingsContext, values: NewKeyValues, today: string, errors?: FormErrors) => renderDocument(<NewKeyView ctx={ctx} values={values} errors={errors} today={today} />),
  keyCreated: (ctx: SettingsContext, apiKey: ApiKey, plain: string) => renderDocument(<KeyCreatedView ctx={ctx} apiKey={apiKey} plain={plain} />),
  revokeKey: (ctx: SettingsContext, apiKey: ApiKey) => renderDocument(<RevokeKeyView ctx={ctx} apiKey={apiKey} />),

  webhooks: (ctx: SettingsContext, page: CursorPage<WebhookEndpointView>, nextPage: string | null) => renderDocument(<WebhooksView ctx={ctx} page={page} nextPage={nextPage} />),
  webhookForm: (ctx: SettingsContext, endpoint: WebhookEndpointView | null, values: WebhookFormValues, allowHttp: boolean, errors?: FormErrors) =>
    renderDocument(<WebhookFormView ctx={ctx} endpoint={endpoint} values={values} errors={errors} allowHttp={allowHttp} />),
  webhookSecret: (ctx: SettingsContext, endpoint: WebhookEndpointWithSecretView, rotated: RotatedWebhookSecretView | null) =>
    renderDocument(<WebhookSecretView ctx={ctx} endpoint={endpoint} rotated={rotated} />),
  webhook: (ctx: SettingsContext, endpoint: WebhookEndpointView, deliveries: CursorPage<WebhookDeliveryView>, nextPage: string | null) =>
    renderDocument(<WebhookDetailView ctx={ctx} endpoint={endpoint} deliveries={deliveries} nextPage={nextPage} />),
  deleteWebhook: (ctx: SettingsContext, endpoint: WebhookEndpointView) => renderDocument(<DeleteWebhookView ctx={ctx} endpoint={endpoint} />),
  delivery: (ctx: SettingsContext, endpoint: WebhookEndpointView, delivery: WebhookDeliveryDetailView) => renderDocument(<DeliveryView ctx={ctx} endpoint={endpoint} delivery={delivery} />),

  audit: (ctx: SettingsContext, page: CursorPage<AuditEntry>, nextPage: string | null) => renderDocument(<AuditView ctx={ctx} page={page} nextPage={nextPage} />),

  admins: (ctx: SettingsContext, admins: readonly AdminView[]) => renderDocument(<AdminsView ctx={ctx} admins={admins} />),
  newAdmin: (ctx: SettingsContext, values: NewAdminValues, errors?: FormErrors) => renderDocument(<NewAdminView ctx={ctx} values={values} errors={errors} />),
  adminCreated: (ctx: SettingsContext, admin: AdminView, generatedPassword: string | null) => renderDocument(<AdminCreatedView ctx={ctx} admin={admin} generatedPassword={generatedPassword} />),
  removeAdmin: (ctx: SettingsContext, admin: AdminView, errors?: FormErrors) => renderDocument(<RemoveAdminView ctx={ctx} admin={admin} errors={errors} />),

  account: (ctx: SettingsContext, sessions: readonly SessionView[], errors?: FormErrors) => renderDocument(<AccountView ctx={ctx} sessions={sessions} errors={errors} />),

  error: (ctx: SettingsContext, page: SettingsErrorPage) => renderDocument(<ErrorView ctx={ctx} page={page} />),
};
