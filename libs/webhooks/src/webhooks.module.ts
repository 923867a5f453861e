import { Module } from '@nestjs/common';
import { CreateWebhookUseCase } from './application/create-webhook.use-case.js';
import { DeleteWebhookUseCase } from './application/delete-webhook.use-case.js';
import { DeliverWebhookUseCase } from './application/deliver-webhook.use-case.js';
import { DeliveryDispatcher } from './application/delivery-dispatcher.js';
import { DisableWebhookUseCase } from './application/disable-webhook.use-case.js';
import { EnableWebhookUseCase } from './application/enable-webhook.use-case.js';
import { EndpointSlots } from './application/endpoint-slots.js';
import { GetWebhookDeliveryUseCase } from './application/get-webhook-delivery.use-case.js';
import { GetWebhookUseCase } from './application/get-webhook.use-case.js';
import { ListWebhookDeliveriesUseCase } from './application/list-webhook-deliveries.use-case.js';
import { ListWebhooksUseCase } from './application/list-webhooks.use-case.js';
import { PruneWebhookDeliveriesUseCase } from './application/prune-webhook-deliveries.use-case.js';
import { RelayOutboxEventsUseCase } from './application/relay-outbox-events.use-case.js';
import { RequeueOverdueDeliveriesUseCase } from './application/requeue-overdue-deliveries.use-case.js';
import { ResealWebhookSecretsUseCase } from './application/reseal-webhook-secrets.use-case.js';
import { RetryWebhookDeliveryUseCase } from './application/retry-webhook-delivery.use-case.js';
import { RotateWebhookSecretUseCase } from './application/rotate-webhook-secret.use-case.js';
import { SendTestWebhookUseCase } from './application/send-test-webhook.use-case.js';
import { UpdateWebhookUseCase } from './application/update-webhook.use-case.js';
import { WebhookDeliveryRepository } from './application/webhook-delivery.repository.js';
import { WebhookEndpointRepository } from './application/webhook-endpoint.repository.js';
import { WebhookSender, WebhookUrlPolicy } from './application/webhook-sender.port.js';
import { CheckedWebhookUrlPolicy, SafeWebhookSender } from './infrastructure/safe-webhook-sender.js';
import { SqlWebhookDeliveryRepository } from './infrastructure/sql-webhook-delivery.repository.js';
import { SqlWebhookEndpointRepository } from './infrastructure/sql-webhook-endpoint.repository.js';

const useCases = [
  CreateWebhookUseCase,
  ListWebhooksUseCase,
  GetWebhookUseCase,
  UpdateWebhookUseCase,
  DeleteWebhookUseCase,
  EnableWebhookUseCase,
  DisableWebhookUseCase,
  RotateWebhookSecretUseCase,
  ListWebhookDeliveriesUseCase,
  GetWebhookDeliveryUseCase,
  RetryWebhookDeliveryUseCase,
  SendTestWebhookUseCase,
  DeliverWebhookUseCase,
  PruneWebhookDeliveriesUseCase,
  RelayOutboxEventsUseCase,
  RequeueOverdueDeliveriesUseCase,
];

/**
 * Webhook endpoints, deliveries and the outbox relay's use cases. Every process re-seals stored secrets under the
 * current encryption key at start (ResealWebhookSecretsUseCase); the processors and the relay's runner are in
 * WebhooksJobsModule, for processes that run jobs.
 */
@Module({
  providers: [
    { provide: WebhookEndpointRepository, useClass: SqlWebhookEndpointRepository },
    { provide: WebhookDeliveryRepository, useClass: SqlWebhookDeliveryRepository },
    SafeWebhookSender,
    { provide: WebhookSender, useExisting: SafeWebhookSender },
    { provide: WebhookUrlPolicy, useClass: CheckedWebhookUrlPolicy },
    EndpointSlots,
    DeliveryDispatcher,
    ResealWebhookSecretsUseCase,
    ...useCases,
  ],
  exports: useCases,
})
export class WebhooksModule {}
