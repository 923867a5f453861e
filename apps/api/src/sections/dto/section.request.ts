import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { TRANSLATION_STATUSES, type TranslationStatus } from '#content';
import { UnlessOmitted } from '../../common/validation.decorators.js';


export class CreateSectionRequest {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'Billing' })
  @IsString()
  @Length(1, 255)
  name: string;

  @ApiPropertyOptional({ minimum: 0, description: 'Defaults to after the last section' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  position?: number;

  @ApiPropertyOptional({ description: 'Make this the default section (the previous default stops being it)' })
  @IsOptional()
  @IsBoolean()
  isDefault?: boolean;
}

export class UpdateSectionRequest {
  @ApiPropertyOptional({ minLength: 1, maxLength: 255 })
  @UnlessOmitted()
  @IsString()
  @Length(1, 255)
  name?: string;

  @ApiPropertyOptional({ minimum: 0 })
  @UnlessOmitted()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  position?: number;

  @ApiPropertyOptional({ description: 'true makes this the default section; false is refused (409): make another section the default instead' })
  @UnlessOmitted()
  @IsBoolean()
  isDefault?: boolean;
}

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
