import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsISO8601, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { MAX_OFFSET } from '#core';
import { CONTENT_FORMATS, type ContentFormat } from '#content';
import { CursorPageQuery, PagingParam } from '../../common/pagination.request.js';
import { IsReference, NullableOptional, UnlessOmitted } from '../../common/validation.decorators.js';

const MAX_MARKDOWN = 5 * 1024 * 1024;

/** An article body, as ProseMirror JSON or as Markdown, never both (articles and their translations). */
export class ArticleBodyRequest {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'ProseMirror JSON in the service schema; mutually exclusive with markdown' })
  @UnlessOmitted()
  @IsDefined()
  content?: unknown;

  @ApiPropertyOptional({ description: 'Converted to rich text on write; mutually exclusive with content' })
  @UnlessOmitted()
  @IsString()
  @MaxLength(MAX_MARKDOWN)
  markdown?: string;
}

/** The optional fields of an article write: its body, slug and SEO fields, publish. */
class ArticleFieldsRequest extends ArticleBodyRequest {
  @ApiPropertyOptional({ description: 'Legacy: publish at once (needs content:publish)' })
  @UnlessOmitted()
  @IsBoolean()
  publish?: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'SEO keywords' })
  @NullableOptional()
  @IsString()
  @MaxLength(1000)
  keywords?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'SEO meta description' })
  @NullableOptional()
  @IsString()
  @MaxLength(1000)
  metaDescription?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Open Graph image URL' })
  @NullableOptional()
  @IsString()
  @MaxLength(2000)
  ogImage?: string | null;

  @ApiPropertyOptional({ description: 'Custom slug; turns on custom slug mode (title changes keep it). 409 slug_taken when used' })
  @UnlessOmitted()
  @IsString()
  @Length(1, 200)
  slug?: string;
}

export class CreateArticleRequest extends ArticleFieldsRequest {
  @ApiProperty({ minLength: 1, maxLength: 500 })
  @IsString()
  @Length(1, 500)
  title: string;

  @ApiProperty({ minLength: 1, description: 'Section to create in' })
  @IsReference()
  sectionId: string;

  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1 })
  @NullableOptional()
  @IsReference()
  collectionId?: string | null;
}

/** Every field of a create but the place (see move), each optional; null only where a create takes null. */
export class UpdateArticleRequest extends PartialType(OmitType(CreateArticleRequest, ['sectionId', 'collectionId'] as const), { skipNullProperties: false }) {}

export class MoveArticleRequest {
  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, description: 'null removes the article from any collection' })
  @NullableOptional()
  @IsReference()
  collection_id?: string | null;

  @ApiPropertyOptional({ minLength: 1, description: 'Section to move to' })
  @UnlessOmitted()
  @IsReference()
  section_id?: string;
}

export class FormatQuery {
  @ApiPropertyOptional({ enum: CONTENT_FORMATS, default: 'html' })
  @IsOptional()
  @IsIn(CONTENT_FORMATS)
  format?: ContentFormat;
}

export class GetArticleQuery extends FormatQuery {
  @ApiPropertyOptional({ description: 'A translation locale (one of the helpdesk languages)', example: 'fr' })
  @IsOptional()
  @IsString()
  @Length(2, 20)
  locale?: string;
}

export class ListArticlesQuery extends CursorPageQuery {
  @ApiPropertyOptional({ enum: ['published', 'draft', 'all'], default: 'published', description: 'draft and all need content:write' })
  @IsOptional()
  @IsIn(['published', 'draft', 'all'])
  status?: 'published' | 'draft' | 'all';

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  collection_id?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Updated at or after; ordering becomes oldest-updated first; ignored with start_cursor' })
  @IsOptional()
  @IsISO8601({ strict: true })
  updated_since?: string;

  @ApiPropertyOptional({ enum: CONTENT_FORMATS, default: 'html' })
  @IsOptional()
  @IsIn(CONTENT_FORMATS)
  format?: ContentFormat;

  @PagingParam(1, 100, { description: 'Offset form (earlier API): page size' })
  limit?: number;

  @PagingParam(0, MAX_OFFSET, { description: 'Offset form (earlier API): records to skip' })
  offset?: number;
}

export class DiffQuery {
  @ApiProperty({ description: 'The older side: a version number or a revision ID' })
  @IsString()
  @Length(1, 100)
  against: string;
}
