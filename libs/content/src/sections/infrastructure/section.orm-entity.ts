import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '#core';

@Entity('sections')
export class SectionOrmEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  helpdeskId: string;

  @Column('text')
  name: string;

  @Column('boolean')
  isDefault: boolean;

  @Column('integer')
  position: number;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

@Entity('section_translations')
export class SectionTranslationOrmEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  sectionId: string;

  @Column('text')
  language: string;

  @Column('text')
  name: string;

  @Column('text')
  status: 'draft' | 'published';

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}
