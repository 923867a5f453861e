import { ALL_EVENTS, type CursorPage, EVENT_TYPES } from '#core';
import type { RotatedWebhookSecretView, WebhookDeliveryDetailView, WebhookDeliveryView, WebhookEndpointView, WebhookEndpointWithSecretView } from '#webhooks';
import type { SettingsContext } from './context.js';
import { EVENT_DESCRIPTIONS } from './events.js';
import { Layout } from './layout.js';
import { Badge, CheckboxGroup, CsrfField, DataTable, ErrorSummary, type FormErrors, Input, PageHead, PostButton, SecretField, Textarea, Time } from './parts.js';

/** How long after its last failure an endpoint's disabling counts as the automatic one (it happens in the same transaction). */
const AUTO_DISABLE_WINDOW_MS = 60_000;

/**
 * Whether the service turned the endpoint off itself (a 410 Gone, or sustained failures): its recorded reason, or for
 * an endpoint disabled before reasons were recorded, a disabling right after a failure.
 */
export function autoDisabled(endpoint: WebhookEndpointView): boolean {
  if (endpoint.enabled || !endpoint.disabledAt) return false;
  if (endpoint.disabledReason) return endpoint.disabledReason !== 'manual';
  if (!endpoint.lastFailureAt || endpoint.failureCount === 0) return false;
  const gap = Date.parse(endpoint.disabledAt) - Date.parse(endpoint.lastFailureAt);
  return gap >= 0 && gap <= AUTO_DISABLE_WINDOW_MS;
}

function EndpointState({ endpoint }: { endpoint: WebhookEndpointView }) {
  if (endpoint.enabled) return endpoint.failureCount > 0 ? <Badge tone="warn">Enabled, failing</Badge> : <Badge tone="ok">Enabled</Badge>;
  return autoDisabled(endpoint) ? <Badge tone="bad">Disabled automatically</Badge> : <Badge tone="muted">Disabled</Badge>;
}

function DeliveryStatus({ delivery }: { delivery: WebhookDeliveryView }) {
  if (delivery.status === 'success') return <Badge tone="ok">Delivered</Badge>;
  if (delivery.status === 'pending') return <Badge tone="warn">{delivery.attempts > 0 ? 'Retrying' : 'Pending'}</Badge>;
  return <Badge tone="bad">Failed</Badge>;
}

function eventsText(events: readonly string[]): string {
  return events.includes(ALL_EVENTS) ? 'All events' : events.join(', ');
}

/** Every endpoint with its health, newest first. */
export function WebhooksView({ ctx, page, nextPage }: { ctx: SettingsContext; page: CursorPage<WebhookEndpointView>; nextPage: string | null }) {
  return (
    <Layout ctx={ctx} title="Webhooks">
      <PageHead title="Webhooks" action={{ href: ctx.urls.newWebhook(), label: 'Add an endpoint' }} />
      <p class="lead">Endpoints receive signed events (Standard Webhooks) when content, feedback or tasks change.</p>
      {page.results.length === 0 ? (
        <p class="empty">No endpoints yet. Add one to receive events.</p>
      ) : (
        <DataTable caption="Endpoints" id="webhooks">
          <thead>
            <tr>
              <th scope="col">Endpoint</th>
              <th scope="col">Events</th>
              <th scope="col">State</th>
              <th scope="col">Failures in a row</th>
              <th scope="col">Last success</th>
              <th scope="col">Last failure</th>
            </tr>
          </thead>
          <tbody>
            {page.results.map((endpoint) => (
              <tr>
                <th scope="row">
                  <a href={ctx.urls.webhook(endpoint.id)} class="mono">
                    {endpoint.url}
                  </a>
                  {endpoint.description ? <span class="hint">{endpoint.description}</span> : null}
                </th>
                <td>{eventsText(endpoint.events)}</td>
                <td>
                  <EndpointState endpoint={endpoint} />
                </td>
                <td>{endpoint.failureCount}</td>
                <td class="nowrap">
                  <Time value={endpoint.lastSuccessAt} empty="never" />
                </td>
                <td class="nowrap">
                  <Time value={endpoint.lastFailureAt} empty="never" />
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
      {nextPage ? (
        <nav class="pagination" aria-label="More endpoints">
          <a href={nextPage}>Older endpoints</a>
        </nav>
      ) : null}
    </Layout>
  );
}

export interface WebhookFormValues {
  readonly url: string;
  readonly description: string;
  readonly events: readonly string[];
}

export const EMPTY_WEBHOOK_VALUES: WebhookFormValues = { url: '', description: '', events: [] };

/** Create or edit an endpoint: URL, events, description. */
export function WebhookFormView({
  ctx,
  endpoint,
  values,
  errors,
  allowHttp,
}: {
  ctx: SettingsContext;
  /** null: a new endpoint. */
  endpoint: WebhookEndpointView | null;
  values: WebhookFormValues;
  errors?: FormErrors;
  allowHttp: boolean;
}) {
  const title = endpoint ? 'Edit the endpoint' : 'Add an endpoint';
  const action = endpoint ? ctx.urls.editWebhook(endpoint.id) : ctx.urls.newWebhook();
  return (
    <Layout ctx={ctx} title={errors?.length ? `Error: ${title}` : title}>
      <h1>{title}</h1>
      <ErrorSummary errors={errors} />
      <form method="post" action={action} class="form" novalidate>
        <CsrfField ctx={ctx} />
        <Input
          id="webhook-url"
          name="url"
          type="url"
          label="URL"
          hint={allowHttp ? 'Where events are POSTed. Private and loopback addresses are refused unless allowed by the server settings.' : 'Where events are POSTed: an https URL on the public internet.'}
          value={values.url}
          errors={errors}
          required
          maxLength={2048}
          autocomplete="off"
          spellcheck={false}
        />
        <CheckboxGroup
          id="webhook-events"
          name="events"
          legend="Events"
          hint="“All events” includes event types added later. Otherwise choose the ones the receiver handles."
          options={[
            { value: ALL_EVENTS, label: 'All events', hint: 'Every event type, now and later.' },
            ...EVENT_TYPES.map((type) => ({ value: type, label: <code>{type}</code>, hint: EVENT_DESCRIPTIONS[type] })),
          ]}
          checked={values.events}
          errors={errors}
        />
        <Textarea id="webhook-description" name="description" label="Description (optional)" hint="What receives the events, for the people who read this list." value={values.description} errors={errors} maxLength={500} />
        <div class="buttons">
          <button type="submit" class="button primary">
            {endpoint ? 'Save' : 'Add endpoint'}
          </button>
          <a href={endpoint ? ctx.urls.webhook(endpoint.id) : ctx.urls.webhooks()}>Cancel</a>
        </div>
      </form>
    </Layout>
  );
}

/** The signing secret, this once: after the endpoint was created, or after a rotation. */
export function WebhookSecretView({ ctx, endpoint, rotated }: { ctx: SettingsContext; endpoint: WebhookEndpointWithSecretView; rotated: RotatedWebhookSecretView | null }) {
  return (
    <Layout ctx={ctx} title={rotated ? 'New signing secret' : 'Endpoint added'}>
      <h1>{rotated ? 'New signing secret' : 'Endpoint added'}</h1>
      <p class="mono">{endpoint.url}</p>
      <div class="warning">
        <strong>Copy the signing secret now.</strong> It is shown only this once. The receiver uses it to check each event's <code>webhook-signature</code> header.
        {rotated ? (
          <>
            {' '}
            Until <Time value={rotated.previousSecretExpiresAt} /> the previous secret signs too, so the receiver can switch without missing an event.
          </>
        ) : null}
      </div>
      <SecretField id="signing-secret" label="Signing secret" value={endpoint.secret} hint="Select the field and copy it, or use the Copy button." />
      <p>
        <a class="button secondary" href={ctx.urls.webhook(endpoint.id)}>
          Done: go to the endpoint
        </a>
      </p>
    </Layout>
  );
}

/** Why an endpoint is off: the sentence recorded when it was disabled (older endpoints: what their record tells). */
function DisabledNote({ endpoint, deliveries }: { endpoint: WebhookEndpointView; deliveries: readonly WebhookDeliveryView[] }) {
  if (endpoint.enabled) return null;
  if (!autoDisabled(endpoint)) {
    return (
      <div class="warning">
        <p>
          Disabled on <Time value={endpoint.disabledAt} />. {endpoint.disabledMessage ?? ''}
        </p>
        <p>Nothing is sent to it; enable it to receive events again.</p>
      </div>
    );
  }
  const gone = endpoint.disabledReason === 'gone' || deliveries.find((d) => d.status === 'failed')?.responseStatus === 410;
  const why = endpoint.disabledMessage ?? (gone ? 'The receiver answered HTTP 410 Gone.' : `After ${endpoint.failureCount} failed deliveries in a row and no success for a long time.`);
  return (
    <div class="danger-box">
      <p>
        <strong>Disabled automatically</strong> on <Time value={endpoint.disabledAt} />. {why} Pending deliveries were marked failed.
      </p>
      <p>Fix the receiver, enable the endpoint, then retry the failed deliveries you need.</p>
    </div>
  );
}

function Health({ endpoint }: { endpoint: WebhookEndpointView }) {
  return (
    <dl class="facts">
      <dt>State</dt>
      <dd>
        <EndpointState endpoint={endpoint} />
      </dd>
      <dt>Events</dt>
      <dd>{eventsText(endpoint.events)}</dd>
      <dt>Description</dt>
      <dd>{endpoint.description ?? <span class="muted">none</span>}</dd>
      <dt>Failures in a row</dt>
      <dd>{endpoint.failureCount}</dd>
      <dt>Last success</dt>
      <dd>
        <Time value={endpoint.lastSuccessAt} empty="never" />
      </dd>
      <dt>Last failure</dt>
      <dd>
        <Time value={endpoint.lastFailureAt} empty="never" />
      </dd>
      <dt>Created</dt>
      <dd>
        <Time value={endpoint.createdAt} />
      </dd>
    </dl>
  );
}

export function DeliveriesTable({ ctx, endpointId, deliveries, caption }: { ctx: SettingsContext; endpointId: string; deliveries: readonly WebhookDeliveryView[]; caption: string }) {
  return (
    <DataTable caption={caption} id="deliveries">
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Status</th>
          <th scope="col">Response</th>
          <th scope="col">Attempts</th>
          <th scope="col">Created</th>
          <th scope="col">Delivered or next try</th>
          <th scope="col">Error</th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => (
          <tr>
            <th scope="row">
              <a href={ctx.urls.delivery(endpointId, delivery.id)} aria-label={`${delivery.eventType} delivery ${delivery.id}`}>
                <code>{delivery.eventType}</code>
              </a>
            </th>
            <td>
              <DeliveryStatus delivery={delivery} />
            </td>
            <td>{delivery.responseStatus ?? <span class="muted">none</span>}</td>
            <td>{delivery.attempts}</td>
            <td class="nowrap">
              <Time value={delivery.createdAt} />
            </td>
            <td class="nowrap">{delivery.deliveredAt ? <Time value={delivery.deliveredAt} /> : delivery.nextRetryAt ? <Time value={delivery.nextRetryAt} /> : <span class="muted">—</span>}</td>
            <td>{delivery.error ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

/** An endpoint: its health, what can be done with it, and its deliveries (newest first, paged). */
export function WebhookDetailView({
  ctx,
  endpoint,
  deliveries,
  nextPage,
}: {
  ctx: SettingsContext;
  endpoint: WebhookEndpointView;
  deliveries: CursorPage<WebhookDeliveryView>;
  nextPage: string | null;
}) {
  return (
    <Layout ctx={ctx} title="Webhook endpoint">
      <p>
        <a href={ctx.urls.webhooks()}>All endpoints</a>
      </p>
      <h1 class="mono">{endpoint.url}</h1>
      <DisabledNote endpoint={endpoint} deliveries={deliveries.results} />
      <Health endpoint={endpoint} />
      <h2 id="actions">Actions</h2>
      <div class="actions">
        <a class="button secondary" href={ctx.urls.editWebhook(endpoint.id)}>
          Edit
        </a>
        {endpoint.enabled ? <PostButton ctx={ctx} action={ctx.urls.webhookAction(endpoint.id, 'test')} label="Send a test event" /> : null}
        {endpoint.enabled ? (
          <PostButton ctx={ctx} action={ctx.urls.webhookAction(endpoint.id, 'disable')} label="Disable" />
        ) : (
          <PostButton ctx={ctx} action={ctx.urls.webhookAction(endpoint.id, 'enable')} label="Enable" variant="primary" />
        )}
        <PostButton ctx={ctx} action={ctx.urls.webhookAction(endpoint.id, 'rotate')} label="Rotate the signing secret" describedBy="rotate-hint" />
        <a class="button danger" href={ctx.urls.webhookAction(endpoint.id, 'delete')}>
          Delete
        </a>
      </div>
      <p class="hint" id="rotate-hint">
        Rotating shows a new secret once; the previous one keeps signing for 24 hours beside it. The secret is never shown again otherwise.
      </p>
      <h2 id="deliveries-heading">Deliveries</h2>
      {deliveries.results.length === 0 ? (
        <p class="empty">No deliveries yet. {endpoint.enabled ? 'Send a test event to try the endpoint.' : ''}</p>
      ) : (
        <DeliveriesTable ctx={ctx} endpointId={endpoint.id} deliveries={deliveries.results} caption="Recent deliveries, newest first (kept 30 days)" />
      )}
      {nextPage ? (
        <nav class="pagination" aria-label="More deliveries">
          <a href={nextPage}>Older deliveries</a>
        </nav>
      ) : null}
    </Layout>
  );
}

/** One delivery and every attempt at it, oldest first; a retry for one that is not pending. */
export function DeliveryView({ ctx, endpoint, delivery }: { ctx: SettingsContext; endpoint: WebhookEndpointView; delivery: WebhookDeliveryDetailView }) {
  return (
    <Layout ctx={ctx} title="Delivery">
      <p>
        <a href={ctx.urls.webhook(endpoint.id)}>Back to the endpoint</a>
      </p>
      <h1>
        Delivery of <code>{delivery.eventType}</code>
      </h1>
      <p class="mono">to {endpoint.url}</p>
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <DeliveryStatus delivery={delivery} />
        </dd>
        <dt>Delivery ID</dt>
        <dd>
          <code>{delivery.id}</code> (the <code>webhook-id</code> header)
        </dd>
        <dt>Response</dt>
        <dd>{delivery.responseStatus ?? <span class="muted">none</span>}</dd>
        <dt>Attempts</dt>
        <dd>{delivery.attempts}</dd>
        <dt>Created</dt>
        <dd>
          <Time value={delivery.createdAt} />
        </dd>
        <dt>Delivered</dt>
        <dd>
          <Time value={delivery.deliveredAt} empty="not yet" />
        </dd>
        <dt>Next try</dt>
        <dd>
          <Time value={delivery.nextRetryAt} empty="none planned" />
        </dd>
        <dt>Error</dt>
        <dd>{delivery.error ?? <span class="muted">none</span>}</dd>
      </dl>
      {delivery.status !== 'pending' ? (
        endpoint.enabled ? (
          <div class="actions">
            <PostButton ctx={ctx} action={ctx.urls.retryDelivery(endpoint.id, delivery.id)} label="Retry this delivery" variant="primary" />
          </div>
        ) : (
          <p class="warning">The endpoint is disabled: enable it to retry this delivery.</p>
        )
      ) : null}
      <h2>Attempts</h2>
      {delivery.attemptHistory.length === 0 ? (
        <p class="empty">No attempt yet.</p>
      ) : (
        <DataTable caption="Attempts, oldest first" id="attempts">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Time</th>
              <th scope="col">Response</th>
              <th scope="col">Duration</th>
              <th scope="col">Error</th>
              <th scope="col">Response excerpt</th>
            </tr>
          </thead>
          <tbody>
            {delivery.attemptHistory.map((attempt) => (
              <tr>
                <th scope="row">{attempt.attempt}</th>
                <td class="nowrap">
                  <Time value={attempt.attemptedAt} />
                </td>
                <td>{attempt.responseStatus ?? <span class="muted">none</span>}</td>
                <td class="nowrap">{attempt.durationMs} ms</td>
                <td>{attempt.error ?? ''}</td>
                <td>{attempt.responseExcerpt ? <pre class="excerpt">{attempt.responseExcerpt}</pre> : <span class="muted">empty</span>}</td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
    </Layout>
  );
}

/** Delete, after a confirmation. */
export function DeleteWebhookView({ ctx, endpoint }: { ctx: SettingsContext; endpoint: WebhookEndpointView }) {
  return (
    <Layout ctx={ctx} title="Delete an endpoint">
      <h1>Delete this endpoint?</h1>
      <p class="mono">{endpoint.url}</p>
      <div class="danger-box">
        <p>The endpoint and its delivery records are deleted; pending deliveries are not sent. This can't be undone.</p>
      </div>
      <form method="post" action={ctx.urls.webhookAction(endpoint.id, 'delete')}>
        <CsrfField ctx={ctx} />
        <div class="buttons">
          <button type="submit" class="button danger">
            Delete endpoint
          </button>
          <a href={ctx.urls.webhook(endpoint.id)}>Cancel</a>
        </div>
      </form>
    </Layout>
  );
}
