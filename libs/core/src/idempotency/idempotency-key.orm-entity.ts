import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../database/columns.js';

@Entity('idempotency_keys')
export class IdempotencyKeyOrmEntity {
  /** The API key ID, or `ip:<address>` on public routes. */
  @PrimaryColumn('text')
  owner: string;

  @PrimaryColumn('text')
  key: string;

  @Column('text')
  fingerprint: string;

  @Column('integer', { nullable: true })
  responseStatus: number | null;

  @Column('jsonb', { nullable: true })
  responseBody: unknown;

  @Column('jsonb', { nullable: true })
  responseHeaders: Record<string, string> | null;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn({ nullable: true })
  completedAt: Date | null;
}
