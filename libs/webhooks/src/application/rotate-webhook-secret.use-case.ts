import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import { lockedEndpoint } from './webhook-endpoint-access.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';
import { type RotatedWebhookSecretView, webhookEndpointView } from './webhook-views.js';

/** A new secret, returned once; the previous one keeps signing beside it for 24 hours. */
@Injectable()
export class RotateWebhookSecretUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(id: string): Promise<RotatedWebhookSecretView> {
    return this.unitOfWork.run(async () => {
      const endpoint = await lockedEndpoint(this.endpoints, id);
      const secret = endpoint.rotateSecret(this.clock.now());
      await this.endpoints.update(endpoint);
      const e = endpoint.snapshot();
      return { ...webhookEndpointView(e), secret, previousSecretExpiresAt: e.previousSecretUntil!.toISOString() };
    });
  }
}
