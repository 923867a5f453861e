import { ApiProperty, ApiPropertyOptional, IntersectionType, PickType } from '@nestjs/swagger';
import { IsOptional, IsString, Length, Matches } from 'class-validator';
import { ArticleBodyRequest, CreateArticleRequest } from '../../articles/dto/article.request.js';
import { CursorPageQuery } from '../../common/pagination.request.js';

/** A translation's draft: a title and a body, as an article's. */
export class PutArticleTranslationRequest extends IntersectionType(PickType(CreateArticleRequest, ['title'] as const), ArticleBodyRequest) {}

export class MissingQuery {
  @ApiPropertyOptional({ description: 'Comma-separated locales; default: every enabled language but the default one', example: 'fr,de' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9-]+(,[A-Za-z0-9-]+)*$/, { message: 'locales must be comma-separated language codes' })
  locales?: string;
}

export class SearchQuery extends CursorPageQuery {
  @ApiProperty({ description: 'Words, "quoted phrases", OR and -excluded words (websearch syntax)', example: 'reset password' })
  @IsString()
  @Length(1, 500)
  query: string;

  @ApiPropertyOptional({ description: 'Search the published translations in this locale instead of the default language' })
  @IsOptional()
  @IsString()
  @Length(2, 20)
  locale?: string;
}
