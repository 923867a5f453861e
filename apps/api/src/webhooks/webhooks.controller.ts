import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Principal } from '#core';
import { CurrentPrincipal, RequireScopes } from '#gateway';
import {
  CreateWebhookUseCase,
  DeleteWebhookUseCase,
  DisableWebhookUseCase,
  EnableWebhookUseCase,
  GetWebhookDeliveryUseCase,
  GetWebhookUseCase,
  ListWebhookDeliveriesUseCase,
  ListWebhooksUseCase,
  RetryWebhookDeliveryUseCase,
  RotateWebhookSecretUseCase,
  SendTestWebhookUseCase,
  UpdateWebhookUseCase,
} from '#webhooks';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { DeletedResponse } from '../common/page.response.js';
import { CursorPageQuery } from '../common/pagination.request.js';
import { CreateWebhookRequest, ListDeliveriesQuery, UpdateWebhookRequest } from './webhook.request.js';
import {
  RotatedSecretResponse,
  TestDeliveryResponse,
  WebhookDeliveryDetailResponse,
  WebhookDeliveryPage,
  WebhookDeliveryResponse,
  WebhookEndpointDetailResponse,
  WebhookEndpointPage,
  WebhookEndpointResponse,
  WebhookEndpointWithSecretResponse,
} from './webhook.response.js';

/** The 409 of the routes that load an endpoint to change it or send to it, when its secret cannot be opened. */
const UNREADABLE_SECRET = "409 invalid_state when the endpoint's stored signing secret does not open with the configured encryption keys (see POST /webhooks/{id}/test).";

@ApiTags('Webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(
    private readonly createWebhook: CreateWebhookUseCase,
    private readonly listWebhooks: ListWebhooksUseCase,
    private readonly getWebhook: GetWebhookUseCase,
    private readonly updateWebhook: UpdateWebhookUseCase,
    private readonly deleteWebhook: DeleteWebhookUseCase,
    private readonly enableWebhook: EnableWebhookUseCase,
    private readonly disableWebhook: DisableWebhookUseCase,
    private readonly rotateSecret: RotateWebhookSecretUseCase,
    private readonly listDeliveries: ListWebhookDeliveriesUseCase,
    private readonly getDelivery: GetWebhookDeliveryUseCase,
    private readonly retryDelivery: RetryWebhookDeliveryUseCase,
    private readonly sendTest: SendTestWebhookUseCase,
  ) {}

  @Post()
  @RequireScopes('webhooks:manage')
  @ApiOperation({
    summary: 'Create a webhook endpoint',
    description:
      'Returns the signing secret (whsec_…), which is shown only here and on rotation. URLs must be https (http only with WEBHOOK_ALLOW_HTTP) and must not point at private, loopback or metadata addresses. ' +
      'The endpoint receives only events the creating key may read: article events need content:write or content:publish, collection and section events content:read, ' +
      'feedback events analytics:read, task events content:write (403 insufficient_scope for a named event the key may not read; "*" is every event it may read).',
  })
  @ApiCreatedResponse({ type: WebhookEndpointWithSecretResponse })
  async create(@Body() body: CreateWebhookRequest, @CurrentPrincipal() principal: Principal): Promise<WebhookEndpointWithSecretResponse> {
    return this.createWebhook.execute(body, principal);
  }

  @Get()
  @RequireScopes('webhooks:manage')
  @ApiOperation({ summary: 'List webhook endpoints', description: 'Cursor-paginated, newest first. Secrets are never listed.' })
  @ApiOkResponse({ type: WebhookEndpointPage })
  async list(@Query() query: CursorPageQuery): Promise<WebhookEndpointPage> {
    return this.listWebhooks.execute({ pageSize: query.page_size, startCursor: query.start_cursor });
  }

  @Get(':id')
  @RequireScopes('webhooks:manage')
  @ApiOperation({ summary: 'Get a webhook endpoint', description: 'With its 20 most recent deliveries, newest first.' })
  @ApiOkResponse({ type: WebhookEndpointDetailResponse })
  async get(@Param('id') id: string): Promise<WebhookEndpointDetailResponse> {
    return this.getWebhook.execute(id);
  }

  @Patch(':id')
  @RequireScopes('webhooks:manage')
  @ApiOperation({
    summary: 'Update a webhook endpoint',
    description:
      'url, events, description. Use enable/disable to change `enabled`. New events are checked against this key\'s scopes, which then decide what the endpoint receives (as on create). ' +
      UNREADABLE_SECRET,
  })
  @ApiOkResponse({ type: WebhookEndpointResponse })
  @ApiErrors('invalid_state')
  async update(@Param('id') id: string, @Body() body: UpdateWebhookRequest, @CurrentPrincipal() principal: Principal): Promise<WebhookEndpointResponse> {
    return this.updateWebhook.execute(id, body, principal);
  }

  @Delete(':id')
  @RequireScopes('webhooks:manage')
  @HttpCode(200)
  @ApiOperation({ summary: 'Delete a webhook endpoint', description: 'With its delivery records; pending deliveries are not sent.' })
  @ApiOkResponse({ type: DeletedResponse })
  async delete(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<DeletedResponse> {
    return this.deleteWebhook.execute(id, principal);
  }

  @Post(':id/enable')
  @RequireScopes('webhooks:manage')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Enable a webhook endpoint',
    description: `Re-enables a disabled endpoint: failureCount back to 0; disabledAt, disabledReason and disabledMessage cleared. Deliveries failed while disabled can be retried. ${UNREADABLE_SECRET}`,
  })
  @ApiOkResponse({ type: WebhookEndpointResponse })
  @ApiErrors('invalid_state')
  async enable(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<WebhookEndpointResponse> {
    return this.enableWebhook.execute(id, principal);
  }

  @Post(':id/disable')
  @RequireScopes('webhooks:manage')
  @HttpCode(200)
  @ApiOperation({ summary: 'Disable a webhook endpoint', description: `No deliveries are sent; pending ones become failed with "endpoint disabled". disabledReason becomes \`manual\` (an endpoint already disabled keeps its reason). ${UNREADABLE_SECRET}` })
  @ApiOkResponse({ type: WebhookEndpointResponse })
  @ApiErrors('invalid_state')
  async disable(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<WebhookEndpointResponse> {
    return this.disableWebhook.execute(id, principal);
  }

  @Post(':id/secret/rotate')
  @RequireScopes('webhooks:manage')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Rotate the signing secret',
    description: `Returns the new secret once. For 24 hours the previous secret keeps signing too: webhook-signature then carries two v1 signatures. ${UNREADABLE_SECRET}`,
  })
  @ApiOkResponse({ type: RotatedSecretResponse })
  @ApiErrors('invalid_state')
  async rotate(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<RotatedSecretResponse> {
    return this.rotateSecret.execute(id, principal);
  }

  @Get(':id/deliveries')
  @RequireScopes('webhooks:manage')
  @ApiOperation({ summary: 'List deliveries of an endpoint', description: 'Cursor-paginated, newest first; `status` filters. Records are kept 30 days.' })
  @ApiOkResponse({ type: WebhookDeliveryPage })
  async deliveries(@Param('id') id: string, @Query() query: ListDeliveriesQuery): Promise<WebhookDeliveryPage> {
    return this.listDeliveries.execute(id, { pageSize: query.page_size, startCursor: query.start_cursor, status: query.status });
  }

  @Get(':id/deliveries/:deliveryId')
  @RequireScopes('webhooks:manage')
  @ApiOperation({ summary: 'Get a delivery', description: 'Status, response code, attempts, next retry, and every attempt with its time, response status, duration, error and response excerpt.' })
  @ApiOkResponse({ type: WebhookDeliveryDetailResponse })
  async delivery(@Param('id') id: string, @Param('deliveryId') deliveryId: string): Promise<WebhookDeliveryDetailResponse> {
    return this.getDelivery.execute(id, deliveryId);
  }

  @Post(':id/deliveries/:deliveryId/retry')
  @RequireScopes('webhooks:manage')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Retry a delivery',
    description:
      'Sends a failed (or successful) delivery again with the same webhook-id; it is pending until the attempt. 409 when it is pending already or the endpoint is disabled. ' +
      UNREADABLE_SECRET,
  })
  @ApiAcceptedResponse({ type: WebhookDeliveryResponse })
  @ApiErrors('invalid_state')
  async retry(@Param('id') id: string, @Param('deliveryId') deliveryId: string, @CurrentPrincipal() principal: Principal): Promise<WebhookDeliveryResponse> {
    return this.retryDelivery.execute(id, deliveryId, principal);
  }

  @Post(':id/test')
  @RequireScopes('webhooks:manage')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Send a test event',
    description:
      'Queues a webhook.test event (data: the endpoint) for this endpoint through the real pipeline, signed like every event. Poll the delivery for the result. ' +
      '409 invalid_state when the endpoint is disabled, or when its stored signing secret does not open with the configured encryption keys ' +
      '(ENCRYPTION_KEY, ENCRYPTION_KEY_PREVIOUS: altered or copied in the database): nothing could be signed for it.',
  })
  @ApiAcceptedResponse({ type: TestDeliveryResponse })
  @ApiErrors('invalid_state')
  async test(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<TestDeliveryResponse> {
    const { deliveryId } = await this.sendTest.execute(id, principal);
    return { delivery_id: deliveryId };
  }
}
