import { applyDecorators } from '@nestjs/common';
import { IsNotEmpty, IsString, ValidateIf } from 'class-validator';

/**
 * The field may be omitted (unchanged), but null is not one of its values: unlike @IsOptional, which would let
 * null through to the domain and the database, only undefined skips the field's other rules.
 */
export const UnlessOmitted = (): PropertyDecorator => ValidateIf((_, value: unknown) => value !== undefined);

/** The field may be omitted or null (cleared); any other value must pass the field's other rules. */
export const NullableOptional = (): PropertyDecorator => ValidateIf((_, value: unknown) => value !== undefined && value !== null);

/**
 * The ID of another resource in a body: a non-empty string. Whether it names an existing resource is the use
 * case's to check; an empty string is a malformed ID, refused here like any other bad shape.
 */
export const IsReference = (): PropertyDecorator => applyDecorators(IsString(), IsNotEmpty({ message: '$property must be an ID, not an empty string' }));
