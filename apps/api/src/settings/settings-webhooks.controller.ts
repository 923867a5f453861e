import { Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ALL_EVENTS, ValidationError, WebhookConfig } from '#core';
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
  type WebhookEndpointView,
} from '#webhooks';
import { queryText, SettingsController } from './controllers.js';
import type { Form } from './http/form.js';
import { formOf, type SettingsRequest } from './http/settings-request.js';
import { formErrorsOf, SettingsPages } from './settings-pages.js';
import type { FormErrors } from './views/parts.js';
import { renderSettings } from './views/pages.js';
import type { WebhookFormValues } from './views/webhooks-views.js';

const WEBHOOK_FIELDS = { url: 'webhook-url', events: 'webhook-events', description: 'webhook-description' };
/** As the JSON API's request bodies limit them. */
const MAX_URL_LENGTH = 2048;
const MAX_DESCRIPTION_LENGTH = 500;
const ENDPOINTS_PER_PAGE = 50;
const DELIVERIES_PER_PAGE = 20;

/** The use cases' messages name the JSON fields (`url must use https`); the form's words say "The URL". */
function formMessage(error: unknown): unknown {
  if (!(error instanceof ValidationError)) return error;
  const details = (error.details ?? []).map((detail) => ({ field: detail.field, message: detail.message.replace(/^url\b/, 'The URL').replace(/^events\b/, 'Events') }));
  return new ValidationError(error.message, details);
}

function valuesOf(form: Form): WebhookFormValues {
  return { url: form.text('url').trim(), description: form.text('description').trim(), events: form.all('events') };
}

/** The form's own checks, before the use case's (which checks the URL's scheme and address, and the event names). */
function formProblems(values: WebhookFormValues): FormErrors {
  const errors: Array<FormErrors[number]> = [];
  if (values.url === '') errors.push({ id: 'webhook-url', message: 'Enter the URL events are sent to.' });
  else if (values.url.length > MAX_URL_LENGTH) errors.push({ id: 'webhook-url', message: `The URL must be at most ${MAX_URL_LENGTH} characters.` });
  if (values.events.length === 0) errors.push({ id: 'webhook-events', message: 'Choose at least one event, or All events.' });
  if (values.description.length > MAX_DESCRIPTION_LENGTH) errors.push({ id: 'webhook-description', message: `The description must be at most ${MAX_DESCRIPTION_LENGTH} characters.` });
  return errors;
}

/** "All events" checked with others is all events. */
function eventsOf(values: WebhookFormValues): string[] {
  return values.events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...values.events];
}

/**
 * Webhook endpoints through the same use cases as `/v1/webhooks`, the admin as a full-access principal: the list
 * with health, create and edit, the secret shown at creation and rotation only (in the POST's own answer), enable,
 * disable, test, delete with confirmation, deliveries with their attempts, and retry.
 */
@SettingsController()
export class SettingsWebhooksController {
  constructor(
    private readonly pages: SettingsPages,
    private readonly config: WebhookConfig,
    private readonly listWebhooks: ListWebhooksUseCase,
    private readonly createWebhook: CreateWebhookUseCase,
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

  @Get('webhooks')
  async list(@Query('cursor') cursor: unknown, @Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const page = await this.listWebhooks.execute({ pageSize: ENDPOINTS_PER_PAGE, startCursor: queryText(cursor) });
    const next = page.has_more && page.next_cursor ? `${this.pages.urls.webhooks()}?cursor=${encodeURIComponent(page.next_cursor)}` : null;
    this.pages.send(response, 200, renderSettings.webhooks(this.pages.context(request, 'webhooks'), page, next));
  }

  @Get('webhooks/new')
  newForm(@Req() request: SettingsRequest, @Res() response: Response): void {
    this.pages.send(response, 200, renderSettings.webhookForm(this.pages.context(request, 'webhooks'), null, { url: '', description: '', events: [] }, this.config.allowHttp));
  }

  /** Creates the endpoint and answers with its signing secret, this once (no-store, never in a URL or a log). */
  @Post('webhooks/new')
  async create(@Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const ctx = this.pages.context(request, 'webhooks');
    const values = valuesOf(formOf(request));
    const problems = formProblems(values);
    if (problems.length > 0) {
      this.pages.send(response, 400, renderSettings.webhookForm(ctx, null, values, this.config.allowHttp, problems));
      return;
    }
    try {
      const created = await this.createWebhook.execute({ url: values.url, events: eventsOf(values), description: values.description || null }, this.pages.principal(request));
      this.pages.send(response, 201, renderSettings.webhookSecret(ctx, created, null));
    } catch (error) {
      this.pages.send(response, 400, renderSettings.webhookForm(ctx, null, values, this.config.allowHttp, formErrorsOf(formMessage(error), WEBHOOK_FIELDS, 'webhook-url')));
    }
  }

  @Get('webhooks/:id')
  async detail(@Param('id') id: string, @Query('cursor') cursor: unknown, @Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const endpoint = await this.getWebhook.execute(id);
    const deliveries = await this.listDeliveries.execute(id, { pageSize: DELIVERIES_PER_PAGE, startCursor: queryText(cursor) });
    const next = deliveries.has_more && deliveries.next_cursor ? this.pages.urls.webhook(id, { cursor: deliveries.next_cursor }) : null;
    this.pages.send(response, 200, renderSettings.webhook(this.pages.context(request, 'webhooks'), endpoint, deliveries, next));
  }

  @Get('webhooks/:id/edit')
  async editForm(@Param('id') id: string, @Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const endpoint = await this.getWebhook.execute(id);
    const values: WebhookFormValues = { url: endpoint.url, description: endpoint.description ?? '', events: endpoint.events };
    this.pages.send(response, 200, renderSettings.webhookForm(this.pages.context(request, 'webhooks'), endpoint, values, this.config.allowHttp));
  }

  @Post('webhooks/:id/edit')
  async edit(@Param('id') id: string, @Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const ctx = this.pages.context(request, 'webhooks');
    const values = valuesOf(formOf(request));
    const problems = formProblems(values);
    const refuse = async (errors: FormErrors): Promise<void> => {
      const endpoint: WebhookEndpointView = await this.getWebhook.execute(id);
      this.pages.send(response, 400, renderSettings.webhookForm(ctx, endpoint, values, this.config.allowHttp, errors));
    };
    if (problems.length > 0) return refuse(problems);
    try {
      await this.updateWebhook.execute(id, { url: values.url, events: eventsOf(values), description: values.description || null }, this.pages.principal(request));
    } catch (error) {
      return refuse(formErrorsOf(formMessage(error), WEBHOOK_FIELDS, 'webhook-url'));
    }
    this.pages.redirect(response, this.pages.urls.webhook(id, { notice: 'webhook_updated' }));
  }

  @Post('webhooks/:id/enable')
  async enable(@Param('id') id: string, @Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    await this.enableWebhook.execute(id, this.pages.principal(request));
    this.pages.redirect(response, this.pages.urls.webhook(id, { notice: 'webhook_enabled' }));
  }

  @Post('webhooks/:id/disable')
  async disable(@Param('id') id: string, @Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    await this.disableWebhook.execute(id, this.pages.principal(request));
    this.pages.redirect(response, this.pages.urls.webhook(id, { notice: 'webhook_disabled' }));
  }

  /** A new signing secret, shown in this answer only; the previous one signs beside it for 24 hours. */
  @Post('webhooks/:id/rotate')
  async rotate(@Param('id') id: string, @Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const rotated = await this.rotateSecret.execute(id, this.pages.principal(request));
    this.pages.send(response, 200, renderSettings.webhookSecret(this.pages.context(request, 'webhooks'), rotated, rotated));
  }

  @Post('webhooks/:id/test')
  async test(@Param('id') id: string, @Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    await this.sendTest.execute(id, this.pages.principal(request));
    this.pages.redirect(response, `${this.pages.urls.webhook(id, { notice: 'test_sent' })}#deliveries-heading`);
  }

  @Get('webhooks/:id/delete')
  async deleteConfirm(@Param('id') id: string, @Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const endpoint = await this.getWebhook.execute(id);
    this.pages.send(response, 200, renderSettings.deleteWebhook(this.pages.context(request, 'webhooks'), endpoint));
  }

  @Post('webhooks/:id/delete')
  async delete(@Param('id') id: string, @Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    await this.deleteWebhook.execute(id, this.pages.principal(request));
    this.pages.redirect(response, this.pages.urls.webhooks('webhook_deleted'));
  }

  @Get('webhooks/:id/deliveries/:deliveryId')
  async delivery(@Param('id') id: string, @Param('deliveryId') deliveryId: string, @Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    const endpoint = await this.getWebhook.execute(id);
    const delivery = await this.getDelivery.execute(id, deliveryId);
    this.pages.send(response, 200, renderSettings.delivery(this.pages.context(request, 'webhooks'), endpoint, delivery));
  }

  @Post('webhooks/:id/deliveries/:deliveryId/retry')
  async retry(@Param('id') id: string, @Param('deliveryId') deliveryId: string, @Req() request: SettingsRequest, @Res() response: Response): Promise<void> {
    await this.retryDelivery.execute(id, deliveryId, this.pages.principal(request));
    this.pages.redirect(response, this.pages.urls.delivery(id, deliveryId, 'delivery_retried'));
  }
}
