import { Column } from 'typeorm';

/** `timestamptz(3)`: millisecond precision, exactly what JSON timestamps and keyset cursors carry. */
export function TimestampColumn(options: { nullable?: boolean } = {}): PropertyDecorator {
  return Column('timestamp with time zone', { precision: 3, nullable: options.nullable ?? false });
}
