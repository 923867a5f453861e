import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_CODES } from '#core';

export class ErrorDetailResponse {
  @ApiProperty({ description: 'The field (or header) at fault', example: 'name' })
  field: string;

  @ApiProperty({ description: 'What is wrong with it', example: 'name must be a string' })
  message: string;
}

/** The `{ error, code }` envelope of every error (CONTRACT §2), with the request's ID and the link to the code's entry. */
export class ErrorResponse {
  @ApiProperty({ description: 'Human-readable message (may change; branch on code)' })
  error: string;

  @ApiProperty({ enum: ERROR_CODES, description: 'Stable machine-readable code: see the error table in the description' })
  code: string;

  @ApiPropertyOptional({ type: [ErrorDetailResponse], description: 'Field-level problems (validation and image errors)' })
  details?: ErrorDetailResponse[];

  @ApiProperty({ description: 'The X-Request-Id of this response; quote it when reporting a problem', example: '0b9d6f2e-3c1a-4f8e-9a57-2d4c6b8e1f03' })
  requestId: string;

  @ApiProperty({ format: 'uri', description: "The code's entry in the error reference: {PUBLIC_URL}/docs/errors#<code>", example: 'https://help.example.com/docs/errors#not_found' })
  docUrl: string;
}
