import { describe, expect, it } from '@jest/globals';
import { DefaultNamingStrategy } from 'typeorm';
import { SnakeNamingStrategy } from './snake-naming.strategy.js';

describe('SnakeNamingStrategy', () => {
  const strategy = new SnakeNamingStrategy();

  it('is a TypeORM naming strategy', () => {
    expect(strategy).toBeInstanceOf(DefaultNamingStrategy);
  });

  describe('columnName', () => {
    it.each([
      ['id', 'id'],
      ['title', 'title'],
      ['createdAt', 'created_at'],
      ['lastUsedAt', 'last_used_at'],
      ['keyHash', 'key_hash'],
      ['helpdeskId', 'helpdesk_id'],
      ['apiKeyID', 'api_key_id'],
      ['HTTPStatus', 'http_status'],
      ['sha256Hash', 'sha256_hash'],
      ['body2', 'body2'],
      ['already_snake', 'already_snake'],
      ['lastFour', 'last_four'],
      ['isURLSafe', 'is_url_safe'],
    ])('maps the property %s to %s', (property, column) => {
      expect(strategy.columnName(property, undefined, [])).toBe(column);
    });

    it('prefixes embedded columns with the embedded property names', () => {
      expect(strategy.columnName('city', undefined, ['address'])).toBe('address_city');
      expect(strategy.columnName('zipCode', undefined, ['homeAddress'])).toBe('home_address_zip_code');
      expect(strategy.columnName('value', undefined, ['outer', 'innerPart'])).toBe('outer_inner_part_value');
    });

    it('uses a custom column name instead of the property name', () => {
      expect(strategy.columnName('createdAt', 'inserted_at', [])).toBe('inserted_at');
      expect(strategy.columnName('createdAt', 'inserted_at', ['meta'])).toBe('meta_inserted_at');
    });

    it('keeps an explicit column name as written', () => {
      expect(strategy.columnName('weird', 'Weird', [])).toBe('Weird');
      expect(strategy.columnName('weird', 'Weird', ['homeAddress'])).toBe('home_address_Weird');
    });
  });

  it('maps relation names to snake_case', () => {
    expect(strategy.relationName('parentSection')).toBe('parent_section');
    expect(strategy.relationName('helpdesk')).toBe('helpdesk');
  });

  it('maps join columns to <relation>_<referenced column>', () => {
    expect(strategy.joinColumnName('parentSection', 'id')).toBe('parent_section_id');
    expect(strategy.joinColumnName('article', 'id')).toBe('article_id');
    expect(strategy.joinColumnName('apiKey', 'keyHash')).toBe('api_key_key_hash');
  });
});
