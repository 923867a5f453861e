import { ValidateIf } from 'class-validator';

/**
 * The field may be omitted (unchanged), but null is not one of its values: unlike @IsOptional, which would let
 * null through to the domain and the database, only undefined skips the field's other rules.
 */
export const UnlessOmitted = (): PropertyDecorator => ValidateIf((_, value: unknown) => value !== undefined);

/** The field may be omitted or null (cleared); any other value must pass the field's other rules. */
export const NullableOptional = (): PropertyDecorator => ValidateIf((_, value: unknown) => value !== undefined && value !== null);
