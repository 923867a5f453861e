import { ApiProperty } from '@nestjs/swagger';
import type { Helpdesk } from '#content';

export class FooterLinkResponse {
  @ApiProperty({ example: 'Contact us' })
  label: string;

  @ApiProperty({ example: 'mailto:support@example.com', description: 'An absolute http(s) URL or a mailto: address' })
  url: string;
}

export class HelpdeskResponse {
  @ApiProperty({ example: 'help_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' })
  id: string;

  @ApiProperty({ example: 'Help Center' })
  name: string;

  @ApiProperty({ example: 'en', description: 'Language of the content itself; translations go into the other languages' })
  defaultLanguage: string;

  @ApiProperty({ type: [String], example: ['en', 'fr'], description: 'Enabled languages, the default one first' })
  languages: string[];

  @ApiProperty({ type: String, nullable: true, format: 'uri', example: 'https://cdn.example.com/acme-logo.svg', description: 'Logo of the public help center, or null' })
  logoUrl: string | null;

  @ApiProperty({ type: String, nullable: true, pattern: '^#[0-9a-f]{6}$', example: '#0b5fff', description: 'Accent colour of the public help center (lowercase), or null for the default' })
  accentColor: string | null;

  @ApiProperty({ type: [FooterLinkResponse], description: 'Links in the public help center footer, in order' })
  footerLinks: FooterLinkResponse[];

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  static from(helpdesk: Helpdesk): HelpdeskResponse {
    return {
      id: helpdesk.id,
      name: helpdesk.name,
      defaultLanguage: helpdesk.defaultLanguage,
      languages: [...helpdesk.languages],
      logoUrl: helpdesk.logoUrl,
      accentColor: helpdesk.accentColor,
      footerLinks: helpdesk.footerLinks.map((link) => ({ label: link.label, url: link.url })),
      createdAt: helpdesk.createdAt.toISOString(),
      updatedAt: helpdesk.updatedAt.toISOString(),
    };
  }
}
