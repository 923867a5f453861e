import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { UnitOfWork } from '#core';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';

/**
 * Brings every stored signing secret under the current encryption key: secrets stored in plain text by earlier
 * versions, and secrets sealed with a key that is now ENCRYPTION_KEY_PREVIOUS. Runs when a process starts (all
 * endpoint rows locked in ID order, so processes starting together take turns and the later ones find nothing to do).
 */
@Injectable()
export class ResealWebhookSecretsUseCase implements OnApplicationBootstrap {
  private readonly logger = new Logger('WebhookSecrets');

  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async execute(): Promise<number> {
    return this.unitOfWork.run(() => this.endpoints.resealSecrets());
  }

  async onApplicationBootstrap(): Promise<void> {
    const resealed = await this.execute();
    if (resealed > 0) this.logger.log(`Encrypted the signing secrets of ${resealed} webhook endpoints with the current key`);
  }
}
