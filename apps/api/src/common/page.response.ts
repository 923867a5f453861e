import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI schema of a cursor page of `item` (source §2: results, has_more, next_cursor). */
export function CursorPageOf<T>(item: Type<T>, name: string): Type<{ results: T[]; has_more: boolean; next_cursor: string | null }> {
  class CursorPage {
    @ApiProperty({ type: [item] })
    results: T[];

    @ApiProperty({ description: 'Whether another page follows' })
    has_more: boolean;

    @ApiProperty({ type: String, nullable: true, description: 'Pass as start_cursor for the next page; null on the last page' })
    next_cursor: string | null;
  }
  Object.defineProperty(CursorPage, 'name', { value: name });
  return CursorPage;
}

export class DeletedResponse {
  @ApiProperty()
  id: string;

  @ApiProperty({ enum: [true] })
  deleted: true;
}
