import { type ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import type { ValidationError as ClassValidatorError } from 'class-validator';
import { type ErrorDetail, unstorableTextError, ValidationError } from '#core';

function flatten(errors: readonly ClassValidatorError[], parent = ''): ErrorDetail[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/**
 * Keys class-transformer drops without a word (its prototype-pollution guard), at any depth, so
 * forbidNonWhitelisted never sees them and `{"name":"x","__proto__":{}}` would pass as `{"name":"x"}`.
 */
const SILENTLY_DROPPED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor']);

function droppedKeys(value: unknown): ErrorDetail[] {
  const found: ErrorDetail[] = [];
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    for (const [key, child] of Object.entries(current)) {
      const field = path ? `${path}.${key}` : key;
      if (SILENTLY_DROPPED_KEYS.has(key)) found.push({ field, message: `property ${key} should not exist` });
      else stack.push([child, field]);
    }
  }
  return found;
}

const MAX_DETAILS = 50;

/** One detail per distinct problem, at most 50 of them, so a huge invalid body cannot make a huge error. */
function toValidationError(all: ErrorDetail[]): ValidationError {
  const seen = new Set<string>();
  const details = all.filter((d) => !seen.has(`${d.field}\u0000${d.message}`) && seen.add(`${d.field}\u0000${d.message}`)).slice(0, MAX_DETAILS);
  const summary = details.length > 0 ? [...new Set(details.map((detail) => detail.message))].join('; ') : 'Invalid request';
  return new ValidationError(summary, details);
}

/**
 * Unknown fields are rejected (CONTRACT §1), including the ones class-transformer would drop silently. Query and
 * path values must be storable text (no NUL, no unpaired surrogate), like bodies (checked as they are parsed),
 * whatever the route does with them: 400 naming the parameter.
 */
class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'query' || metadata.type === 'param') {
      const error = unstorableTextError(value, metadata.data ?? '');
      if (error) throw error;
    }
    if ((metadata.type === 'body' || metadata.type === 'query') && metadata.metatype && this.toValidate(metadata)) {
      const details = droppedKeys(value);
      if (details.length > 0) throw toValidationError(details);
    }
    return super.transform(value, metadata);
  }
}

/** Whitelist, reject unknown fields, transform to DTO classes; failures are 400 invalid_request with details. */
export function createValidationPipe(): ValidationPipe {
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => toValidationError(flatten(errors)),
  });
}
