import { describe, expect, it } from '@jest/globals';
import type { ArgumentMetadata } from '@nestjs/common';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { ValidationError } from '#core';
import { toErrorResponse } from './error-response.js';
import { createValidationPipe } from './validation.js';

class TagDto {
  @IsString()
  @Length(1, 20)
  name: string;
}

class AuthorDto {
  @IsString()
  name: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => TagDto)
  badge?: TagDto;
}

class CreateThingDto {
  @IsString()
  @Length(1, 10)
  title: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100)
  position?: number;

  @IsOptional()
  @IsBoolean()
  pinned?: boolean;

  @IsOptional()
  @ValidateNested()
  @Type(() => AuthorDto)
  author?: AuthorDto;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(3)
  @ValidateNested({ each: true })
  @Type(() => TagDto)
  tags?: TagDto[];
}

class PageQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page_size must be an integer' })
  @Min(1, { message: 'page_size must be from 1 to 100' })
  @Max(100, { message: 'page_size must be from 1 to 100' })
  page_size?: number;

  @IsOptional()
  @IsString()
  start_cursor?: string;
}

const body: ArgumentMetadata = { type: 'body', metatype: CreateThingDto };
const query: ArgumentMetadata = { type: 'query', metatype: PageQueryDto };

async function rejectionOf(value: unknown, metadata: ArgumentMetadata = body): Promise<ValidationError> {
  const pipe = createValidationPipe();
  let thrown: unknown;
  try {
    await pipe.transform(value, metadata);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ValidationError);
  return thrown as ValidationError;
}

describe('createValidationPipe', () => {
  describe('valid input', () => {
    it('returns an instance of the DTO class with the given values', async () => {
      const result = await createValidationPipe().transform({ title: 'Hello', position: 3, pinned: true }, body);
      expect(result).toBeInstanceOf(CreateThingDto);
      expect(result).toEqual({ title: 'Hello', position: 3, pinned: true });
    });

    it('builds nested DTO instances', async () => {
      const result = (await createValidationPipe().transform(
        { title: 'Hello', author: { name: 'Ann', badge: { name: 'gold' } }, tags: [{ name: 'a' }, { name: 'b' }] },
        body,
      )) as CreateThingDto;
      expect(result.author).toBeInstanceOf(AuthorDto);
      expect(result.author!.badge).toBeInstanceOf(TagDto);
      expect(result.tags![1]).toBeInstanceOf(TagDto);
    });

    it('converts query strings only where the DTO asks for it (@Type)', async () => {
      const result = (await createValidationPipe().transform({ page_size: '25', start_cursor: 'abc' }, query)) as PageQueryDto;
      expect(result.page_size).toBe(25);
      expect(result.start_cursor).toBe('abc');
    });

    it('passes primitives of route parameters through', async () => {
      expect(await createValidationPipe().transform('art_123', { type: 'param', metatype: String, data: 'id' })).toBe('art_123');
    });
  });

  describe('invalid input → 400 invalid_request with details', () => {
    it('rejects an unknown top-level field instead of dropping it', async () => {
      const error = await rejectionOf({ title: 'Hello', colour: 'red' });
      expect(error.code).toBe('invalid_request');
      expect(error.details).toEqual([{ field: 'colour', message: 'property colour should not exist' }]);
      expect(error.message).toBe('property colour should not exist');
    });

    it('rejects an unknown nested field, naming its path', async () => {
      const error = await rejectionOf({ title: 'Hello', author: { name: 'Ann', email: 'a@b.c' } });
      expect(error.details).toEqual([{ field: 'author.email', message: 'property email should not exist' }]);
    });

    it('reports every failed constraint of every field', async () => {
      const error = await rejectionOf({ title: 42, position: 101, pinned: 'yes' });
      const fields = error.details!.map((detail) => detail.field);
      expect(new Set(fields)).toEqual(new Set(['title', 'position', 'pinned']));
      expect(error.details).toEqual(
        expect.arrayContaining([
          { field: 'title', message: 'title must be a string' },
          { field: 'position', message: 'position must not be greater than 100' },
          { field: 'pinned', message: 'pinned must be a boolean value' },
        ]),
      );
      // One field may fail several constraints (string + length).
      expect(fields.filter((field) => field === 'title').length).toBeGreaterThanOrEqual(2);
    });

    it('joins the messages into the summary', async () => {
      const error = await rejectionOf({ title: 'Hello', position: -1, pinned: 'no' });
      expect(error.message).toBe(error.details!.map((detail) => detail.message).join('; '));
      expect(error.message).toContain('position must not be less than 0');
      expect(error.message).toContain('pinned must be a boolean value');
    });

    it('reports a missing required field', async () => {
      const error = await rejectionOf({});
      expect(error.details).toEqual(expect.arrayContaining([{ field: 'title', message: 'title must be a string' }]));
    });

    it('reports a missing body like an empty one', async () => {
      const error = await rejectionOf(undefined);
      expect(error.details!.some((detail) => detail.field === 'title')).toBe(true);
    });

    it('names nested and array fields with dotted paths', async () => {
      const error = await rejectionOf({
        title: 'Hello',
        author: { name: 7, badge: { name: '' } },
        tags: [{ name: 'ok' }, { name: 'x'.repeat(21) }],
      });
      expect(error.details).toEqual(
        expect.arrayContaining([
          { field: 'author.name', message: 'name must be a string' },
          { field: 'author.badge.name', message: 'name must be longer than or equal to 1 characters' },
          { field: 'tags.1.name', message: 'name must be shorter than or equal to 20 characters' },
        ]),
      );
      expect(error.details!.some((detail) => detail.field.startsWith('tags.0'))).toBe(false);
    });

    it('does not convert types implicitly (a numeric string is not an integer)', async () => {
      const error = await rejectionOf({ title: 'Hello', position: '5' });
      expect(error.details!.map((detail) => detail.field)).toEqual(expect.arrayContaining(['position']));
    });

    it('uses the DTO messages for query parameters', async () => {
      const error = await rejectionOf({ page_size: 'abc' }, query);
      // NaN also fails @Min/@Max; those messages are identical and are currently listed twice (not deduplicated).
      expect(error.details).toContainEqual({ field: 'page_size', message: 'page_size must be an integer' });
      expect(error.details!.every((detail) => detail.field === 'page_size')).toBe(true);
      const zero = await rejectionOf({ page_size: '0' }, query);
      expect(zero.details).toEqual([{ field: 'page_size', message: 'page_size must be from 1 to 100' }]);
    });

    it('rejects unknown query parameters', async () => {
      const error = await rejectionOf({ page_size: '5', limit: '10' }, query);
      expect(error.details).toEqual([{ field: 'limit', message: 'property limit should not exist' }]);
    });

    it.each([
      ['a top-level __proto__ key', '{"title":"Hello","__proto__":{"isAdmin":true}}', '__proto__'],
      ['a top-level constructor key', '{"title":"Hello","constructor":{"prototype":{}}}', 'constructor'],
      ['a nested __proto__ key', '{"title":"Hello","author":{"name":"Ann","__proto__":{}}}', 'author.__proto__'],
      ['a __proto__ key inside an array item', '{"title":"Hello","tags":[{"name":"a"},{"name":"b","__proto__":{}}]}', 'tags.1.__proto__'],
    ])('rejects %s (which class-transformer would drop silently)', async (_label, json, field) => {
      const parsed: unknown = JSON.parse(json);
      const error = await rejectionOf(parsed);
      expect(error.code).toBe('invalid_request');
      expect(error.details).toContainEqual({ field, message: `property ${field.split('.').at(-1)} should not exist` });
      expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
    });

    it('rejects a __proto__ query parameter', async () => {
      const error = await rejectionOf(JSON.parse('{"page_size":"5","__proto__":"x"}'), query);
      expect(error.details).toEqual([{ field: '__proto__', message: 'property __proto__ should not exist' }]);
    });

    it('rejects an array where an object is expected', async () => {
      const error = await rejectionOf([{ title: 'Hello' }]);
      expect(error.code).toBe('invalid_request');
      expect(error.details!.length).toBeGreaterThan(0);
    });

    it('details carry only field and message (no submitted values, no target object)', async () => {
      const error = await rejectionOf({ title: 'secret-value-123456', author: { name: 'Ann', password: 'hunter2' } });
      for (const detail of error.details!) expect(Object.keys(detail).sort()).toEqual(['field', 'message']);
      const text = JSON.stringify({ message: error.message, details: error.details });
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('secret-value-123456');
    });

    it('maps to an HTTP 400 invalid_request body with the details', async () => {
      const error = await rejectionOf({ title: 'Hello', extra: true });
      expect(toErrorResponse(error)).toEqual({
        status: 400,
        body: {
          error: 'property extra should not exist',
          code: 'invalid_request',
          details: [{ field: 'extra', message: 'property extra should not exist' }],
        },
      });
    });
  });
});
