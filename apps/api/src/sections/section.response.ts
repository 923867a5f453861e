import { ApiProperty } from '@nestjs/swagger';
import { type Section, type SectionTranslation, TRANSLATION_STATUSES, sectionView, sectionTranslationView } from '#content';
import { CursorPageOf } from '../common/page.response.js';

export class SectionTranslationResponse {
  @ApiProperty({ example: 'sectr_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' })
  id: string;

  @ApiProperty()
  sectionId: string;

  @ApiProperty({ example: 'fr' })
  language: string;

  @ApiProperty({ example: 'Général' })
  name: string;

  @ApiProperty({ enum: TRANSLATION_STATUSES, description: 'draft: not shown to readers yet; published: live' })
  status: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  static from(t: SectionTranslation): SectionTranslationResponse {
    return sectionTranslationView(t);
  }

}

export class SectionResponse {
  @ApiProperty({ example: 'sect_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' })
  id: string;

  @ApiProperty({ example: 'help_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' })
  helpdeskId: string;

  @ApiProperty({ example: 'General' })
  name: string;

  @ApiProperty({ description: 'Whether this is the default section (exactly one is)' })
  isDefault: boolean;

  @ApiProperty({ description: 'Sort position, ascending' })
  position: number;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  @ApiProperty({ type: [SectionTranslationResponse], default: [] })
  translations: SectionTranslationResponse[];

  static from(section: Section): SectionResponse {
    return sectionView(section);
  }

}

export class SectionPage extends CursorPageOf(SectionResponse, 'SectionPage') {}
