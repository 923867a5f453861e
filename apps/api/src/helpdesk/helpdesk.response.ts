import { ApiProperty } from '@nestjs/swagger';
import type { Helpdesk } from '#content';

export class HelpdeskResponse {
  @ApiProperty({ example: 'help_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' })
  id: string;

  @ApiProperty({ example: 'Help Center' })
  name: string;

  @ApiProperty({ example: 'en', description: 'Language of the content itself; translations go into the other languages' })
  defaultLanguage: string;

  @ApiProperty({ type: [String], example: ['en', 'fr'], description: 'Enabled languages, the default one first' })
  languages: string[];

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
      createdAt: helpdesk.createdAt.toISOString(),
      updatedAt: helpdesk.updatedAt.toISOString(),
    };
  }
}
