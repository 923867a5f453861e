import { Injectable } from '@nestjs/common';
import { Clock, type Principal } from '#core';
import { WebhookEndpoint, type WebhookEndpointInput } from '../domain/webhook-endpoint.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';
import { WebhookUrlPolicy } from './webhook-sender.port.js';
import { webhookEndpointView, type WebhookEndpointWithSecretView } from './webhook-views.js';

/** Registers an endpoint; its secret is returned here (and by rotation) only. */
@Injectable()
export class CreateWebhookUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly urls: WebhookUrlPolicy,
    private readonly clock: Clock,
  ) {}

  /** The endpoint receives only events `principal` may read (403 for a named event it may not). */
  async execute(input: WebhookEndpointInput, principal: Principal): Promise<WebhookEndpointWithSecretView> {
    const url = await this.urls.check(input.url);
    const endpoint = WebhookEndpoint.create({ url, events: input.events, description: input.description, scopes: principal.granted }, this.clock.now());
    await this.endpoints.insert(endpoint);
    const e = endpoint.snapshot();
    return { ...webhookEndpointView(e), secret: e.secret };
  }
}
