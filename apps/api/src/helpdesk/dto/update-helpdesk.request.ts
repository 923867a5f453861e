import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, Length, Matches, ValidateIf } from 'class-validator';

// Omitted means unchanged, but null is not a value of these fields: IsOptional would let null through to the
// domain (a 500), so only undefined skips validation.
const unlessOmitted = () => ValidateIf((_, value) => value !== undefined);

export class UpdateHelpdeskRequest {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @unlessOmitted()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ApiPropertyOptional({ type: [String], example: ['en', 'fr', 'de'], description: 'Enabled languages; must include the default language' })
  @unlessOmitted()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @Matches(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, { each: true, message: 'each language must be a code such as en or pt-BR' })
  languages?: string[];
}
