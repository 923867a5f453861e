import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_CODES } from '#core';

export class ErrorDetailResponse {
  @ApiProperty({ example: 'name' })
  field: string;

  @ApiProperty({ example: 'name must be a string' })
  message: string;
}

/** The `{ error, code }` envelope of every error (CONTRACT §2). */
export class ErrorResponse {
  @ApiProperty({ description: 'Human-readable message', example: 'Section sect_01JD… not found' })
  error: string;

  @ApiProperty({ enum: ERROR_CODES, description: 'Stable machine-readable code', example: 'not_found' })
  code: string;

  @ApiPropertyOptional({ type: [ErrorDetailResponse], description: 'Field-level problems (validation errors only)' })
  details?: ErrorDetailResponse[];
}
