import { Module } from '@nestjs/common';
import { DeliverWebhookUseCase } from './application/deliver-webhook.use-case.js';
import { DeliveryDispatcher } from './application/delivery-dispatcher.js';
import { EndpointSlots } from './application/endpoint-slots.js';
import { OutboxRelay } from './application/outbox-relay.js';
import { PruneWebhookDeliveriesUseCase } from './application/prune-webhook-deliveries.use-case.js';
import { ResealWebhookSecretsUseCase } from './application/reseal-webhook-secrets.use-case.js';
import {
  CreateWebhookUseCase,
  DeleteWebhookUseCase,
  GetWebhookDeliveryUseCase,
  GetWebhookUseCase,
  ListWebhookDeliveriesUseCase,
  ListWebhooksUseCase,
  RetryWebhookDeliveryUseCase,
  RotateWebhookSecretUseCase,
  SendTestWebhookUseCase,
  SetWebhookEnabledUseCase,
  UpdateWebhookUseCase,
  WebhookEndpointFinder,
} from './application/webhook-endpoints.use-cases.js';
import { WebhookSender, WebhookUrlPolicy } from './application/webhook-sender.port.js';
import { WebhookDeliveryRepository, WebhookEndpointRepository } from './application/webhook.repositories.js';
import { CheckedWebhookUrlPolicy, SafeWebhookSender } from './infrastructure/safe-webhook-sender.js';
import { SqlWebhookDeliveryRepository } from './infrastructure/sql-webhook-delivery.repository.js';
import { SqlWebhookEndpointRepository } from './infrastructure/sql-webhook-endpoint.repository.js';

const useCases = [
  ResealWebhookSecretsUseCase,
  CreateWebhookUseCase,
  ListWebhooksUseCase,
  GetWebhookUseCase,
  UpdateWebhookUseCase,
  DeleteWebhookUseCase,
  SetWebhookEnabledUseCase,
  RotateWebhookSecretUseCase,
  ListWebhookDeliveriesUseCase,
  GetWebhookDeliveryUseCase,
  RetryWebhookDeliveryUseCase,
  SendTestWebhookUseCase,
  DeliverWebhookUseCase,
  PruneWebhookDeliveriesUseCase,
  OutboxRelay,
];

/** Webhook endpoints, the outbox relay and deliveries. */
@Module({
  providers: [
    { provide: WebhookEndpointRepository, useClass: SqlWebhookEndpointRepository },
    { provide: WebhookDeliveryRepository, useClass: SqlWebhookDeliveryRepository },
    SafeWebhookSender,
    { provide: WebhookSender, useExisting: SafeWebhookSender },
    { provide: WebhookUrlPolicy, useClass: CheckedWebhookUrlPolicy },
    EndpointSlots,
    DeliveryDispatcher,
    WebhookEndpointFinder,
    ...useCases,
  ],
  exports: useCases,
})
export class WebhooksModule {}
