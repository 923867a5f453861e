import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, IntersectionType, PartialType, PickType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { SHORT_ID_PATTERN, TRANSLATION_STATUSES, type TranslationStatus } from '#content';
import { CursorPageQuery } from '../../common/pagination.request.js';
import { IsReference, NullableOptional, UnlessOmitted } from '../../common/validation.decorators.js';

/**
 * What a shortId must look like (whether it may be omitted or null is the request's to say). Listed as stacked
 * decorators register, bottom first, so a refused value's messages come in the same order as before.
 */
const IsShortId = (): PropertyDecorator =>
  applyDecorators(Matches(SHORT_ID_PATTERN, { message: 'shortId must be 2-64 lowercase letters, digits or dashes, starting with a letter or digit' }), IsString());

/** A collection's title, in the collection and in a translation: as the stacked `@ApiProperty @IsString @Length(1, 255)`. */
const CollectionTitle = (doc: { readonly example?: string } = {}): PropertyDecorator =>
  applyDecorators(Length(1, 255), IsString(), ApiProperty({ minLength: 1, maxLength: 255, ...doc }));

/** A collection's subtitle (omitted or null: none): as the stacked `@ApiPropertyOptional @NullableOptional @IsString @MaxLength(1000)`. */
const CollectionSubtitle = (): PropertyDecorator =>
  applyDecorators(MaxLength(1000), IsString(), NullableOptional(), ApiPropertyOptional({ type: String, nullable: true, maxLength: 1000 }));

export class CreateCollectionRequest {
  @CollectionTitle({ example: 'Getting started' })
  title: string;

  @CollectionSubtitle()
  subtitle?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, description: "Section; a nested collection takes its parent's section" })
  @NullableOptional()
  @IsReference()
  sectionId?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, description: 'Parent collection to nest under' })
  @NullableOptional()
  @IsReference()
  parentCollectionId?: string | null;

  @ApiPropertyOptional({ pattern: SHORT_ID_PATTERN.source, description: 'Generated when omitted; 409 when taken' })
  @IsOptional()
  @IsShortId()
  shortId?: string;
}

/** shortId on update: optional, but null is refused (on creation it means generated). */
class UpdateCollectionShortId {
  @ApiPropertyOptional({ pattern: SHORT_ID_PATTERN.source, description: '409 when taken' })
  @UnlessOmitted()
  @IsShortId()
  shortId?: string;
}

/** Title and subtitle with their creation rules, each optional (omitted: unchanged; null refused for the title, clears the subtitle). */
export class UpdateCollectionRequest extends IntersectionType(
  PartialType(PickType(CreateCollectionRequest, ['title', 'subtitle'] as const), { skipNullProperties: false }),
  UpdateCollectionShortId,
) {}

export class MoveCollectionRequest {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    minLength: 1,
    description: 'New section (null: none). Alone, it takes a nested collection out of its parent.',
  })
  @NullableOptional()
  @IsReference()
  section_id?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, description: "New parent collection (null: top level). The collection takes the parent's section." })
  @NullableOptional()
  @IsReference()
  parent_collection_id?: string | null;
}

export class PutCollectionTranslationRequest {
  @CollectionTitle()
  title: string;

  @CollectionSubtitle()
  subtitle?: string | null;

  @ApiPropertyOptional({ enum: TRANSLATION_STATUSES, default: 'published' })
  @IsOptional()
  @IsIn(TRANSLATION_STATUSES)
  status?: TranslationStatus;
}

export class ListCollectionsQuery extends CursorPageQuery {
  @ApiPropertyOptional({ description: 'Only collections in this section' })
  @IsOptional()
  @IsString()
  section_id?: string;
}
