import { Injectable } from '@nestjs/common';
import { Clock, type CursorPage, type CursorRequest, InvalidStateError, NotFoundError, Paginator, type Principal, UnitOfWork } from '#core';
import { type DeliveryAttempt, type DeliveryStatus, ENDPOINT_DISABLED, type WebhookDelivery } from '../domain/webhook-delivery.js';
import { WebhookEndpoint } from '../domain/webhook-endpoint.js';
import { DeliveryDispatcher } from './delivery-dispatcher.js';
import { WebhookUrlPolicy } from './webhook-sender.port.js';
import { webhookEndpointView } from './webhook-views.js';
import { WebhookDeliveryRepository, WebhookEndpointRepository } from './webhook.repositories.js';

export const ENDPOINTS_LIST = 'webhook_endpoints';
export const DELIVERIES_LIST = 'webhook_deliveries';
/** Deliveries shown with a single endpoint (source §8). */
export const RECENT_DELIVERIES = 20;

export interface CreateWebhookCommand {
  readonly url: string;
  readonly events: readonly string[];
  readonly description?: string | null;
}

export type UpdateWebhookCommand = Partial<CreateWebhookCommand>;

@Injectable()
export class WebhookEndpointFinder {
  constructor(private readonly endpoints: WebhookEndpointRepository) {}

  async get(id: string, forUpdate = false): Promise<WebhookEndpoint> {
    const endpoint = forUpdate ? await this.endpoints.findForUpdate(id) : await this.endpoints.find(id);
    if (!endpoint) throw new NotFoundError('Webhook endpoint', id);
    return endpoint;
  }
}

/** Registers an endpoint; its secret is returned here (and by rotation) only. */
@Injectable()
export class CreateWebhookUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly urls: WebhookUrlPolicy,
    private readonly clock: Clock,
  ) {}

  /** The endpoint receives only events `principal` may read (403 for a named event it may not). */
  async execute(command: CreateWebhookCommand, principal: Principal): Promise<WebhookEndpoint> {
    const url = await this.urls.check(command.url);
    const endpoint = WebhookEndpoint.create({ ...command, url, scopes: principal.granted }, this.clock.now());
    await this.endpoints.insert(endpoint);
    return endpoint;
  }
}

@Injectable()
export class ListWebhooksUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly paginator: Paginator,
  ) {}

  async execute(request: CursorRequest): Promise<CursorPage<WebhookEndpoint>> {
    const query = this.paginator.query(ENDPOINTS_LIST, request, 'created_desc');
    const slice = await this.endpoints.list(query);
    return this.paginator.page(ENDPOINTS_LIST, query, slice, (e) => ({ value: e.snapshot().createdAt.toISOString(), id: e.id }), (e) => e);
  }
}

/** An endpoint with its 20 most recent deliveries, newest first. */
@Injectable()
export class GetWebhookUseCase {
  constructor(
    private readonly finder: WebhookEndpointFinder,
    private readonly deliveries: WebhookDeliveryRepository,
  ) {}

  async execute(id: string): Promise<{ endpoint: WebhookEndpoint; deliveries: WebhookDelivery[] }> {
    const endpoint = await this.finder.get(id);
    return { endpoint, deliveries: await this.deliveries.recent(id, RECENT_DELIVERIES) };
  }
}

@Injectable()
export class UpdateWebhookUseCase {
  constructor(
    private readonly finder: WebhookEndpointFinder,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly urls: WebhookUrlPolicy,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, command: UpdateWebhookCommand, principal: Principal): Promise<WebhookEndpoint> {
    const url = command.url !== undefined ? await this.urls.check(command.url) : undefined;
    return this.unitOfWork.run(async () => {
      const endpoint = await this.finder.get(id, true);
      endpoint.update({ ...command, url }, principal.granted, this.clock.now());
      await this.endpoints.update(endpoint);
      return endpoint;
    });
  }
}

/** Deletes an endpoint with its deliveries. */
@Injectable()
export class DeleteWebhookUseCase {
  constructor(private readonly endpoints: WebhookEndpointRepository) {}

  async execute(id: string): Promise<void> {
    if (!(await this.endpoints.delete(id))) throw new NotFoundError('Webhook endpoint', id);
  }
}

/**
 * Enable (re-enable: failureCount 0, disabledAt cleared) or disable by hand. Disabling fails the endpoint's pending
 * deliveries with "endpoint disabled", as auto-disabling does.
 */
@Injectable()
export class SetWebhookEnabledUseCase {
  constructor(
    private readonly finder: WebhookEndpointFinder,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, enabled: boolean): Promise<WebhookEndpoint> {
    return this.unitOfWork.run(async () => {
      const endpoint = await this.finder.get(id, true);
      const now = this.clock.now();
      if (enabled) endpoint.enable(now);
      else endpoint.disable(now);
      await this.endpoints.update(endpoint);
      if (!enabled) await this.deliveries.failPending(id, ENDPOINT_DISABLED, now);
      return endpoint;
    });
  }
}

/** A new secret, returned once; the previous one keeps signing beside it for 24 hours. */
@Injectable()
export class RotateWebhookSecretUseCase {
  constructor(
    private readonly finder: WebhookEndpointFinder,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(id: string): Promise<WebhookEndpoint> {
    return this.unitOfWork.run(async () => {
      const endpoint = await this.finder.get(id, true);
      endpoint.rotateSecret(this.clock.now());
      await this.endpoints.update(endpoint);
      return endpoint;
    });
  }
}

@Injectable()
export class ListWebhookDeliveriesUseCase {
  constructor(
    private readonly finder: WebhookEndpointFinder,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly paginator: Paginator,
  ) {}

  async execute(endpointId: string, request: CursorRequest & { status?: DeliveryStatus }): Promise<CursorPage<WebhookDelivery>> {
    await this.finder.get(endpointId);
    const list = `${DELIVERIES_LIST}:${endpointId}:${request.status ?? 'all'}`;
    const query = this.paginator.query(list, request, 'created_desc');
    const slice = await this.deliveries.list(query, { endpointId, status: request.status });
    return this.paginator.page(list, query, slice, (d) => ({ value: d.createdAt.toISOString(), id: d.id }), (d) => d);
  }
}

@Injectable()
export class GetWebhookDeliveryUseCase {
  constructor(
    private readonly finder: WebhookEndpointFinder,
    private readonly deliveries: WebhookDeliveryRepository,
  ) {}

  async execute(endpointId: string, deliveryId: string): Promise<{ delivery: WebhookDelivery; attempts: DeliveryAttempt[] }> {
    await this.finder.get(endpointId);
    const delivery = await this.deliveries.find(endpointId, deliveryId);
    if (!delivery) throw new NotFoundError('Webhook delivery', deliveryId);
    return { delivery, attempts: await this.deliveries.attempts(deliveryId) };
  }
}

/**
 * Sends a failed (or already successful) delivery again, with the same `webhook-id`. A pending delivery is already
 * on its way (409); a disabled endpoint must be enabled first (409).
 */
@Injectable()
export class RetryWebhookDeliveryUseCase {
  constructor(
    private readonly finder: WebhookEndpointFinder,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
    await this.unitOfWork.run(async () => {
      const endpoint = await this.finder.get(endpointId, true);
      if (!endpoint.enabled) throw new InvalidStateError(`Webhook endpoint ${endpointId} is disabled; enable it first`);
      const delivery = await this.deliveries.find(endpointId, deliveryId);
      if (!delivery) throw new NotFoundError('Webhook delivery', deliveryId);
      if (!(await this.deliveries.requeue(deliveryId, this.clock.now()))) {
        throw new InvalidStateError(`Webhook delivery ${deliveryId} is pending already`);
      }
    });
    await this.dispatcher.requeue(deliveryId);
    return (await this.deliveries.find(endpointId, deliveryId))!;
  }
}

/** Queues a webhook.test event for this endpoint only, through the same pipeline (signing, retries, records). */
@Injectable()
export class SendTestWebhookUseCase {
  constructor(
    private readonly finder: WebhookEndpointFinder,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(endpointId: string): Promise<string> {
    const deliveryId = await this.unitOfWork.run(async () => {
      const endpoint = await this.finder.get(endpointId, true);
      if (!endpoint.enabled) throw new InvalidStateError(`Webhook endpoint ${endpointId} is disabled; enable it first`);
      // Relayed at once: a test event goes to this endpoint only, not to every subscriber of "*".
      return this.deliveries.createTestDelivery(endpointId, webhookEndpointView(endpoint), this.clock.now());
    });
    await this.dispatcher.enqueue([deliveryId]);
    return deliveryId;
  }
}
