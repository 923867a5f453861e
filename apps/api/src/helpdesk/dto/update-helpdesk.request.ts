import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, Length, Matches } from 'class-validator';
import { UnlessOmitted } from '../../common/validation.decorators.js';


export class UpdateHelpdeskRequest {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @UnlessOmitted()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ApiPropertyOptional({ type: [String], example: ['en', 'fr', 'de'], description: 'Enabled languages; must include the default language' })
  @UnlessOmitted()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @Matches(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, { each: true, message: 'each language must be a code such as en or pt-BR' })
  languages?: string[];
}
