import { QueryFailedError } from 'typeorm';

function driverCode(error: unknown): string | undefined {
  if (error instanceof QueryFailedError) return (error.driverError as { code?: string }).code;
  return (error as { code?: string } | null)?.code;
}

/** A unique constraint was violated; `constraint` narrows it to one index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (driverCode(error) !== '23505') return false;
  if (!constraint) return true;
  const driverError = error instanceof QueryFailedError ? error.driverError : error;
  return (driverError as { constraint?: string }).constraint === constraint;
}

/** A foreign key found no row to point at (or a referenced row went first); `constraint` narrows it to one key. */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  if (driverCode(error) !== '23503') return false;
  if (!constraint) return true;
  const driverError = error instanceof QueryFailedError ? error.driverError : error;
  return (driverError as { constraint?: string }).constraint === constraint;
}

const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', '57P01', '57P03', '53300']);

/** The database could not be reached or refused new work (maps to 503). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = driverCode(error);
  if (code && UNAVAILABLE_CODES.has(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED/i.test(message);
}

/** PostgreSQL refused a text value: SQLSTATE 22021, what a NUL character (U+0000) in any string gives. */
export function isInvalidTextValue(error: unknown): boolean {
  return driverCode(error) === '22021';
}
