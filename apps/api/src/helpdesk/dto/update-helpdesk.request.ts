import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsOptional, IsString, Length, Matches } from 'class-validator';

export class UpdateHelpdeskRequest {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ApiPropertyOptional({ type: [String], example: ['en', 'fr', 'de'], description: 'Enabled languages; must include the default language' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @Matches(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, { each: true, message: 'each language must be a code such as en or pt-BR' })
  languages?: string[];
}
