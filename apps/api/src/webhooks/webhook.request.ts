import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ALL_EVENTS, EVENT_TYPES } from '#core';
import { DELIVERY_STATUSES, type DeliveryStatus } from '#webhooks';
import { CursorPageQuery } from '../common/pagination.request.js';
import { NullableOptional } from '../common/validation.decorators.js';

const EVENT_CHOICES = [...EVENT_TYPES, ALL_EVENTS];

export class CreateWebhookRequest {
  @ApiProperty({ format: 'uri', maxLength: 2048, example: 'https://example.com/hooks/help-center', description: 'https (http only with WEBHOOK_ALLOW_HTTP); no private or loopback targets' })
  @IsString()
  @MaxLength(2048)
  url: string;

  @ApiProperty({ type: [String], enum: EVENT_CHOICES, example: ['article.published'], description: 'Event types, or ["*"] for all' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(EVENT_CHOICES.length)
  @IsString({ each: true })
  events: string[];

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500 })
  @NullableOptional()
  @IsString()
  @MaxLength(500)
  description?: string | null;
}

/** Any of the create fields; an omitted one stays as it is, and only `description` may be null (cleared). */
export class UpdateWebhookRequest extends PartialType(CreateWebhookRequest, { skipNullProperties: false }) {}

export class ListDeliveriesQuery extends CursorPageQuery {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES, { message: `status must be one of ${DELIVERY_STATUSES.join(', ')}` })
  status?: DeliveryStatus;
}
