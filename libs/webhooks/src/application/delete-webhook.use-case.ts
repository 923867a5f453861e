import { Injectable } from '@nestjs/common';
import { NotFoundError } from '#core';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';

/** Deletes an endpoint with its deliveries (pending ones are not sent); 404 when there is none. */
@Injectable()
export class DeleteWebhookUseCase {
  constructor(private readonly endpoints: WebhookEndpointRepository) {}

  async execute(id: string): Promise<{ id: string; deleted: true }> {
    if (!(await this.endpoints.delete(id))) throw new NotFoundError('Webhook endpoint', id);
    return { id, deleted: true };
  }
}
