import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '#core';

@Entity('collections')
export class CollectionOrmEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  helpdeskId: string;

  @Column('text', { nullable: true })
  sectionId: string | null;

  @Column('text', { nullable: true })
  parentCollectionId: string | null;

  @Column('text')
  title: string;

  @Column('text', { nullable: true })
  subtitle: string | null;

  @Column('text')
  shortId: string;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

@Entity('collection_translations')
export class CollectionTranslationOrmEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  collectionId: string;

  @Column('text')
  language: string;

  @Column('text')
  title: string;

  @Column('text', { nullable: true })
  subtitle: string | null;

  @Column('text')
  status: 'draft' | 'published';

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}
