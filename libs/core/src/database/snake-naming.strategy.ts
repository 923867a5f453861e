import { DefaultNamingStrategy, type NamingStrategyInterface } from 'typeorm';

function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z])([A-Z][a-z])/g, '$1_$2').toLowerCase();
}

/** camelCase properties map to snake_case columns, so entities need no explicit column names. */
export class SnakeNamingStrategy extends DefaultNamingStrategy implements NamingStrategyInterface {
  /** An explicit `@Column({ name })` is kept as written; only derived names are snake-cased. */
  override columnName(propertyName: string, customName: string | undefined, embeddedPrefixes: string[]): string {
    if (customName) return [...embeddedPrefixes.map(snake), customName].join('_');
    return snake([...embeddedPrefixes, propertyName].join('_'));
  }

  override relationName(propertyName: string): string {
    return snake(propertyName);
  }

  override joinColumnName(relationName: string, referencedColumnName: string): string {
    return snake(`${relationName}_${referencedColumnName}`);
  }
}
