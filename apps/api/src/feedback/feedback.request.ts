import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { FEEDBACK_TYPES, type FeedbackType, MAX_FEEDBACK_LENGTH } from '#feedback';
import { CursorPageQuery } from '../common/pagination.request.js';
import { NullableOptional } from '../common/validation.decorators.js';

export class SubmitFeedbackRequest {
  @ApiProperty({ enum: FEEDBACK_TYPES })
  @IsIn(FEEDBACK_TYPES, { message: `type must be one of ${FEEDBACK_TYPES.join(', ')}` })
  type: FeedbackType;

  @ApiProperty({ minLength: 1, maxLength: MAX_FEEDBACK_LENGTH, example: 'The screenshots are out of date.' })
  @IsString()
  @Length(1, MAX_FEEDBACK_LENGTH)
  feedback: string;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'email', description: 'Matched (case-insensitively) to a help center user' })
  @NullableOptional()
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email?: string | null;
}

export class ListFeedbackQuery extends CursorPageQuery {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  article_id?: string;

  @ApiPropertyOptional({ enum: FEEDBACK_TYPES })
  @IsOptional()
  @IsIn(FEEDBACK_TYPES, { message: `type must be one of ${FEEDBACK_TYPES.join(', ')}` })
  type?: FeedbackType;

  @ApiPropertyOptional({ enum: ['true', 'false'] })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'resolved must be true or false' })
  resolved?: boolean;
}

export class ResolveFeedbackRequest {
  @ApiProperty()
  @IsBoolean({ message: 'resolved must be true or false' })
  resolved: boolean;
}

export class CreateUserRequest {
  @ApiProperty({ format: 'email', maxLength: 254, description: 'Stored lowercase; unique per helpdesk, case-insensitively (409)' })
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 255 })
  @NullableOptional()
  @IsString()
  @MaxLength(255)
  name?: string | null;
}

/** Any of the create fields; an omitted one stays as it is, and only `name` may be null (cleared). */
export class UpdateUserRequest extends PartialType(CreateUserRequest, { skipNullProperties: false }) {}

export class PublicArticlesQuery extends CursorPageQuery {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  collection_id?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  section_id?: string;
}
