import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, IntersectionType, PartialType, PickType } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { TRANSLATION_STATUSES, type TranslationStatus } from '#content';
import { UnlessOmitted } from '../../common/validation.decorators.js';

/**
 * A place in the display order (whether it may be omitted or null is the request's to say). Listed as stacked
 * decorators register, bottom first, so a refused value's messages come in the same order as before.
 */
const IsPosition = (): PropertyDecorator => applyDecorators(Max(1_000_000), Min(0), IsInt());

export class CreateSectionRequest {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'Billing' })
  @IsString()
  @Length(1, 255)
  name: string;

  @ApiPropertyOptional({ minimum: 0, description: 'Defaults to after the last section' })
  @IsOptional()
  @IsPosition()
  position?: number;

  @ApiPropertyOptional({ description: 'Make this the default section (the previous default stops being it)' })
  @IsOptional()
  @IsBoolean()
  isDefault?: boolean;
}

/** position and isDefault on update: each optional, but null is refused (on creation it means the default). */
class UpdateSectionPlacement {
  @ApiPropertyOptional({ minimum: 0 })
  @UnlessOmitted()
  @IsPosition()
  position?: number;

  @ApiPropertyOptional({ description: 'true makes this the default section; false is refused (409): make another section the default instead' })
  @UnlessOmitted()
  @IsBoolean()
  isDefault?: boolean;
}

/** Rename (the name with its creation rules; omitted: unchanged, null refused), reorder, or make it the default. */
export class UpdateSectionRequest extends IntersectionType(
  PartialType(PickType(CreateSectionRequest, ['name'] as const), { skipNullProperties: false }),
  UpdateSectionPlacement,
) {}

export class PutSectionTranslationRequest {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'Facturation' })
  @IsString()
  @Length(1, 255)
  name: string;

  @ApiPropertyOptional({ enum: TRANSLATION_STATUSES, default: 'published' })
  @IsOptional()
  @IsIn(TRANSLATION_STATUSES)
  status?: TranslationStatus;
}
