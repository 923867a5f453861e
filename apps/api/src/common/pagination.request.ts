import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '#core';

/**
 * An optional whole-number paging parameter (page_size, limit, offset) from `min` to `max`, read from the query
 * string's text; its messages name the parameter. Listed as the stacked decorators `@ApiPropertyOptional
 * @IsOptional @Type @IsInt @Min @Max` register, bottom first, so a refused value's messages keep their order.
 */
export function PagingParam(min: number, max: number, doc: { readonly default?: number; readonly description?: string } = {}): PropertyDecorator {
  const range = `$property must be from ${min} to ${max}`;
  return applyDecorators(
    Max(max, { message: range }),
    Min(min, { message: range }),
    IsInt({ message: '$property must be an integer' }),
    Type(() => Number),
    IsOptional(),
    ApiPropertyOptional({ minimum: min, maximum: max, ...doc }),
  );
}

/** `page_size` + `start_cursor` of every cursor list. */
export class CursorPageQuery {
  @PagingParam(1, MAX_PAGE_SIZE, { default: DEFAULT_PAGE_SIZE, description: 'Results per page' })
  page_size?: number;

  // No @MaxLength here: an over-long cursor is an unparseable one, which the cursor codec answers with
  // invalid_cursor (CONTRACT §2); a length rule here made it invalid_request.
  @ApiPropertyOptional({ maxLength: 1024, description: 'next_cursor of the previous page (opaque; carries the ordering)' })
  @IsOptional()
  @IsString()
  start_cursor?: string;
}
