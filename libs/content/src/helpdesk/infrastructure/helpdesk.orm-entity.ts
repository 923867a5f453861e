import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '#core';

@Entity('helpdesks')
export class HelpdeskOrmEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  name: string;

  @Column('text')
  defaultLanguage: string;

  @Column('text', { array: true })
  languages: string[];

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}
