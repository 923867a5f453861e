import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, Length, Matches, MaxLength, ValidateNested } from 'class-validator';
import { NullableOptional, UnlessOmitted } from '../../common/validation.decorators.js';

export class FooterLinkRequest {
  @ApiProperty({ minLength: 1, maxLength: 60, example: 'Contact us' })
  @IsString()
  @Length(1, 60)
  label: string;

  @ApiProperty({ maxLength: 2048, example: 'mailto:support@example.com', description: 'An absolute http(s) URL or a mailto: address' })
  @IsString()
  @Length(1, 2048)
  url: string;
}

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

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'uri',
    maxLength: 2048,
    example: 'https://cdn.example.com/acme-logo.svg',
    description: 'Logo shown in the public help center header: an absolute http(s) URL; null removes it (the name is shown instead)',
  })
  @NullableOptional()
  @IsString()
  @MaxLength(2048)
  logoUrl?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    pattern: '^#[0-9a-fA-F]{6}$',
    example: '#0b5fff',
    description: 'Accent colour of the public help center, `#rrggbb`; null returns to the default. Text and link colours are derived from it so contrast stays AA',
  })
  @NullableOptional()
  @IsString()
  @Matches(/^#[0-9a-fA-F]{6}$/, { message: 'accentColor must be a colour #rrggbb, or null' })
  accentColor?: string | null;

  @ApiPropertyOptional({
    type: [FooterLinkRequest],
    maxItems: 10,
    example: [
      { label: 'Status', url: 'https://status.example.com' },
      { label: 'Contact us', url: 'mailto:support@example.com' },
    ],
    description: 'Links in the public help center footer, in order (at most 10); [] removes them all',
  })
  @UnlessOmitted()
  @IsArray()
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => FooterLinkRequest)
  footerLinks?: FooterLinkRequest[];
}
