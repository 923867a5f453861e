import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { MAX_OFFSET, MAX_PAGE_SIZE } from '#core';
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
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1, { message: `limit must be from 1 to ${MAX_PAGE_SIZE}` })
  @Max(MAX_PAGE_SIZE, { message: `limit must be from 1 to ${MAX_PAGE_SIZE}` })
  limit?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: MAX_OFFSET, default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'offset must be an integer' })
  @Min(0, { message: `offset must be from 0 to ${MAX_OFFSET}` })
  @Max(MAX_OFFSET, { message: `offset must be from 0 to ${MAX_OFFSET}` })
  offset?: number;
}
