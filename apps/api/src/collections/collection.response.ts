import { ApiProperty } from '@nestjs/swagger';
import { type Collection, type CollectionTranslation, TRANSLATION_STATUSES, collectionView, collectionTranslationView } from '#content';
import { CursorPageOf } from '../common/page.response.js';

export class CollectionTranslationResponse {
  @ApiProperty({ example: 'coltr_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' })
  id: string;

  @ApiProperty()
  collectionId: string;

  @ApiProperty({ example: 'fr' })
  language: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ type: String, nullable: true })
  subtitle: string | null;

  @ApiProperty({ enum: TRANSLATION_STATUSES })
  status: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  static from(t: CollectionTranslation): CollectionTranslationResponse {
    return collectionTranslationView(t);
  }

}

export class CollectionResponse {
  @ApiProperty({ example: 'col_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' })
  id: string;

  @ApiProperty({ example: 'help_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' })
  helpdeskId: string;

  @ApiProperty({ type: String, nullable: true, description: 'Parent section' })
  sectionId: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Parent collection if nested' })
  parentCollectionId: string | null;

  @ApiProperty({ example: 'Getting started' })
  title: string;

  @ApiProperty({ type: String, nullable: true })
  subtitle: string | null;

  @ApiProperty({ example: 'k3x9q2m', description: 'Short human-friendly identifier, unique per helpdesk' })
  shortId: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  @ApiProperty({ type: [CollectionTranslationResponse], default: [] })
  translations: CollectionTranslationResponse[];

  static from(collection: Collection): CollectionResponse {
    return collectionView(collection);
  }

}

export class CollectionPage extends CursorPageOf(CollectionResponse, 'CollectionPage') {}
