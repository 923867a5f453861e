import { ValidationPipe } from '@nestjs/common';
import type { ValidationError as ClassValidatorError } from 'class-validator';
import { type ErrorDetail, ValidationError } from '../errors/domain-error.js';

function flatten(errors: readonly ClassValidatorError[], parent = ''): ErrorDetail[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/** Whitelist, reject unknown fields, transform to DTO classes; failures are 400 invalid_request with details. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const details = flatten(errors);
      const summary = details.length > 0 ? details.map((detail) => detail.message).join('; ') : 'Invalid request';
      return new ValidationError(summary, details);
    },
  });
}
