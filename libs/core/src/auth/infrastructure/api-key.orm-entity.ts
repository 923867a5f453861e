import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../database/columns.js';

@Entity('api_keys')
export class ApiKeyOrmEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  name: string;

  @Column('text')
  keyHash: string;

  @Column('text')
  lastFour: string;

  @Column('text', { array: true, nullable: true })
  scopes: string[] | null;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn({ nullable: true })
  lastUsedAt: Date | null;

  @TimestampColumn({ nullable: true })
  revokedAt: Date | null;
}
