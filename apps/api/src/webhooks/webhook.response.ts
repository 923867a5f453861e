import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ALL_EVENTS, EVENT_TYPES } from '#core';
import {
  DELIVERY_STATUSES,
  DISABLED_REASONS,
  type DisabledReason,
  type DeliveryAttemptView,
  type RotatedWebhookSecretView,
  type WebhookDeliveryDetailView,
  type WebhookDeliveryView,
  type WebhookEndpointDetailView,
  type WebhookEndpointView,
  type WebhookEndpointWithSecretView,
} from '#webhooks';
import { CursorPageOf } from '../common/page.response.js';

export class WebhookDeliveryResponse implements WebhookDeliveryView {
  @ApiProperty({ example: 'whdl_01JD3Q7W6S1X0Y2Z3A4B5C6D7E', description: 'Also the webhook-id header, the same on every attempt' })
  id: string;

  @ApiProperty({ enum: [...EVENT_TYPES] })
  eventType: string;

  @ApiProperty({ enum: DELIVERY_STATUSES })
  status: string;

  @ApiProperty({ type: Number, nullable: true, description: 'HTTP status of the latest attempt; null before the first or on a network error' })
  responseStatus: number | null;

  @ApiProperty({ description: 'Attempts made so far' })
  attempts: number;

  @ApiProperty({ type: String, nullable: true, description: 'Why the latest attempt failed' })
  error: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'When it first succeeded' })
  deliveredAt: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'Next scheduled retry of a pending delivery that failed' })
  nextRetryAt: string | null;
}

export class DeliveryAttemptResponse implements DeliveryAttemptView {
  @ApiProperty({ description: '1 for the first attempt' })
  attempt: number;

  @ApiProperty({ format: 'date-time' })
  attemptedAt: string;

  @ApiProperty({ type: Number, nullable: true })
  responseStatus: number | null;

  @ApiProperty()
  durationMs: number;

  @ApiProperty({ type: String, nullable: true })
  error: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The start of the response body, 1 KiB at most' })
  responseExcerpt: string | null;
}

export class WebhookDeliveryDetailResponse extends WebhookDeliveryResponse implements WebhookDeliveryDetailView {
  @ApiProperty({ type: [DeliveryAttemptResponse], description: 'Every attempt, oldest first' })
  attemptHistory: DeliveryAttemptResponse[];
}

export class WebhookEndpointResponse implements WebhookEndpointView {
  @ApiProperty({ example: 'whep_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' })
  id: string;

  @ApiProperty({ format: 'uri' })
  url: string;

  @ApiProperty({ type: [String], enum: [...EVENT_TYPES, ALL_EVENTS] })
  events: string[];

  @ApiProperty({ description: 'Whether deliveries are sent; endpoints auto-disable after sustained failures' })
  enabled: boolean;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ description: 'Consecutive failed attempts; 0 after any success or a re-enable' })
  failureCount: number;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  lastSuccessAt: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  lastFailureAt: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'When it was disabled; null while enabled' })
  disabledAt: string | null;

  @ApiProperty({
    type: String,
    enum: DISABLED_REASONS,
    nullable: true,
    description:
      'Why it is disabled: `manual` (by an API key or an admin), `gone` (the receiver answered `410 Gone`), `sustained_failures` ' +
      '(WEBHOOK_DISABLE_MIN_FAILURES failed attempts in a row and no success for WEBHOOK_DISABLE_AFTER_SECONDS). ' +
      'Null while enabled, and for an endpoint disabled before reasons were recorded. Cleared by enabling it.',
  })
  disabledReason: DisabledReason | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The reason in one sentence for people, e.g. "Disabled after 12 failed attempts in a row and no success for 5 days; last error: HTTP 500." ' +
      'Never contains a secret or the path or query of the URL. Null when disabledReason is.',
  })
  disabledMessage: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class WebhookEndpointWithSecretResponse extends WebhookEndpointResponse implements WebhookEndpointWithSecretView {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'The signing secret. Shown only here: store it.' })
  secret: string;
}

export class RotatedSecretResponse extends WebhookEndpointWithSecretResponse implements RotatedWebhookSecretView {
  @ApiProperty({ format: 'date-time', description: 'Until then the previous secret also signs every delivery (a second v1 signature)' })
  previousSecretExpiresAt: string;
}

export class WebhookEndpointDetailResponse extends WebhookEndpointResponse implements WebhookEndpointDetailView {
  @ApiProperty({ type: [WebhookDeliveryResponse], description: 'The 20 most recent deliveries, newest first' })
  deliveries: WebhookDeliveryResponse[];
}

export class WebhookEndpointPage extends CursorPageOf(WebhookEndpointResponse, 'WebhookEndpointPage') {}
export class WebhookDeliveryPage extends CursorPageOf(WebhookDeliveryResponse, 'WebhookDeliveryPage') {}

export class TestDeliveryResponse {
  @ApiPropertyOptional({ example: 'whdl_01JD3Q7W6S1X0Y2Z3A4B5C6D7E', description: 'Poll GET /webhooks/{id}/deliveries/{delivery_id}' })
  delivery_id: string;
}
