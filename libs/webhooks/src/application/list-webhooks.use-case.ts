import { Injectable } from '@nestjs/common';
import { type CursorPage, type CursorRequest, Paginator } from '#core';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';
import type { WebhookEndpointView } from './webhook-views.js';

const ENDPOINTS_LIST = 'webhook_endpoints';

/** Newest first; secrets are never listed (nor opened). */
@Injectable()
export class ListWebhooksUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly paginator: Paginator,
  ) {}

  execute(request: CursorRequest): Promise<CursorPage<WebhookEndpointView>> {
    return this.paginator.list(ENDPOINTS_LIST, request, 'created_desc', (query) => this.endpoints.listViews(query), (e) => ({ value: e.createdAt, id: e.id }), (e) => e);
  }
}
