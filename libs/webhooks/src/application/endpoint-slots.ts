import { Injectable } from '@nestjs/common';
import { WebhookConfig } from '#core';

/** Caps deliveries running at once per endpoint in this process, so one slow receiver cannot take every worker slot. */
@Injectable()
export class EndpointSlots {
  private readonly running = new Map<string, number>();

  constructor(private readonly config: WebhookConfig) {}

  tryAcquire(endpointId: string): boolean {
    const count = this.running.get(endpointId) ?? 0;
    if (count >= this.config.endpointConcurrency) return false;
    this.running.set(endpointId, count + 1);
    return true;
  }

  release(endpointId: string): void {
    const count = (this.running.get(endpointId) ?? 1) - 1;
    if (count <= 0) this.running.delete(endpointId);
    else this.running.set(endpointId, count);
  }
}
