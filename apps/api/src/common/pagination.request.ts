import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '#core';

/** `page_size` + `start_cursor` of every cursor list. */
export class CursorPageQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: 'Results per page' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page_size must be an integer' })
  @Min(1, { message: `page_size must be from 1 to ${MAX_PAGE_SIZE}` })
  @Max(MAX_PAGE_SIZE, { message: `page_size must be from 1 to ${MAX_PAGE_SIZE}` })
  page_size?: number;

  // No @MaxLength here: an over-long cursor is an unparseable one, which the cursor codec answers with
  // invalid_cursor (CONTRACT §2); a length rule here made it invalid_request.
  @ApiPropertyOptional({ maxLength: 1024, description: 'next_cursor of the previous page (opaque; carries the ordering)' })
  @IsOptional()
  @IsString()
  start_cursor?: string;
}
