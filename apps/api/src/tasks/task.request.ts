import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Length } from 'class-validator';
import { MAX_OFFSET, MAX_PAGE_SIZE } from '#core';
import { PagingParam } from '../common/pagination.request.js';
import { IsReference, NullableOptional } from '../common/validation.decorators.js';

/** An optional, nullable ID of the article, collection or section a task is about (whether it exists is the use case's to check). */
function TargetReference(description: string): PropertyDecorator {
  // In the order the stacked decorators `@ApiPropertyOptional @NullableOptional @IsReference` are applied (bottom up).
  return applyDecorators(IsReference(), NullableOptional(), ApiPropertyOptional({ type: String, nullable: true, minLength: 1, description }));
}

export class CreateTaskRequest {
  @ApiProperty({ minLength: 1, maxLength: 10_000, example: 'Write an article about resetting a password' })
  @IsString()
  @Length(1, 10_000)
  instruction: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 255, description: 'Generated from the instruction when omitted' })
  @NullableOptional()
  @IsString()
  @Length(1, 255)
  title?: string | null;

  @TargetReference('Article to update (its open draft receives the change)')
  targetArticleId?: string | null;

  @TargetReference('Collection to update, or to create the article in')
  targetCollectionId?: string | null;

  @TargetReference('Section to update, or to create the article in')
  targetSectionId?: string | null;

  @ApiPropertyOptional({ default: false, description: 'Apply the outputs when the task completes (drafts only: nothing is published)' })
  @IsOptional()
  @IsBoolean()
  autoApply?: boolean;
}

export class ListTasksQuery {
  @PagingParam(1, MAX_PAGE_SIZE, { default: 20 })
  limit?: number;

  @PagingParam(0, MAX_OFFSET, { default: 0 })
  offset?: number;
}
