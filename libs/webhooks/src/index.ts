// The public face of libs/webhooks: apps import only from here.
export { WebhooksModule } from './webhooks.module.js';
export { WebhooksJobsModule } from './jobs/webhooks-jobs.module.js';
export { DELIVERY_STATUSES, type DeliveryStatus } from './domain/webhook-delivery.js';
export { DISABLED_REASONS, type DisabledReason, WebhookSecretUnreadableError } from './domain/webhook-endpoint.js';
export { CreateWebhookUseCase } from './application/create-webhook.use-case.js';
export { ListWebhooksUseCase } from './application/list-webhooks.use-case.js';
export { GetWebhookUseCase } from './application/get-webhook.use-case.js';
export { UpdateWebhookUseCase } from './application/update-webhook.use-case.js';
export { DeleteWebhookUseCase } from './application/delete-webhook.use-case.js';
export { EnableWebhookUseCase } from './application/enable-webhook.use-case.js';
export { DisableWebhookUseCase } from './application/disable-webhook.use-case.js';
export { RotateWebhookSecretUseCase } from './application/rotate-webhook-secret.use-case.js';
export { ListWebhookDeliveriesUseCase } from './application/list-webhook-deliveries.use-case.js';
export { GetWebhookDeliveryUseCase } from './application/get-webhook-delivery.use-case.js';
export { RetryWebhookDeliveryUseCase } from './application/retry-webhook-delivery.use-case.js';
export { SendTestWebhookUseCase } from './application/send-test-webhook.use-case.js';
export { DeliverWebhookUseCase } from './application/deliver-webhook.use-case.js';
export { PruneWebhookDeliveriesUseCase } from './application/prune-webhook-deliveries.use-case.js';
export { RelayOutboxEventsUseCase } from './application/relay-outbox-events.use-case.js';
export type {
  DeliveryAttemptView,
  RotatedWebhookSecretView,
  WebhookDeliveryDetailView,
  WebhookDeliveryView,
  WebhookEndpointDetailView,
  WebhookEndpointView,
  WebhookEndpointWithSecretView,
} from './application/webhook-views.js';
export { signatureHeaders } from './application/webhook-signer.js';
