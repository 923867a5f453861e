// The public face of libs/webhooks: apps import only from here.
export { WebhooksModule } from './webhooks.module.js';
export { DELIVERY_STATUSES, type DeliveryAttempt, type DeliveryStatus, type WebhookDelivery } from './domain/webhook-delivery.js';
export { WebhookEndpoint } from './domain/webhook-endpoint.js';
export {
  type CreateWebhookCommand,
  CreateWebhookUseCase,
  DeleteWebhookUseCase,
  GetWebhookDeliveryUseCase,
  GetWebhookUseCase,
  ListWebhookDeliveriesUseCase,
  ListWebhooksUseCase,
  RECENT_DELIVERIES,
  RetryWebhookDeliveryUseCase,
  RotateWebhookSecretUseCase,
  SendTestWebhookUseCase,
  SetWebhookEnabledUseCase,
  type UpdateWebhookCommand,
  UpdateWebhookUseCase,
} from './application/webhook-endpoints.use-cases.js';
export { DeliverWebhookUseCase } from './application/deliver-webhook.use-case.js';
export { PruneWebhookDeliveriesUseCase } from './application/prune-webhook-deliveries.use-case.js';
export { OutboxRelay } from './application/outbox-relay.js';
export { deliveryAttemptView, webhookDeliveryView, webhookEndpointView } from './application/webhook-views.js';
export { signatureHeaders } from './application/webhook-signer.js';
export { ResealWebhookSecretsUseCase } from './application/reseal-webhook-secrets.use-case.js';
