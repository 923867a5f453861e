import { type ErrorDetail, ValidationError } from '../errors/domain-error.js';

/**
 * Text PostgreSQL cannot store as it was given. `text` and `jsonb` refuse NUL (U+0000), and a lone UTF-16
 * surrogate (U+D800 to U+DFFF without its other half) is not Unicode: `jsonb` refuses its escape, and the
 * driver's UTF-8 encoding silently turns it into U+FFFD in `text` columns. Neither can round-trip.
 */
// eslint-disable-next-line no-control-regex -- matching NUL is the point here
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

/** `value` with every NUL and unpaired surrogate replaced by U+FFFD (the replacement character). */
export function toStorableText(value: string): string {
  return value.replace(UNSTORABLE_ALL, '\ufffd');
}

/** Why `value` cannot be stored as text (a phrase to follow a field name), or null when it can. */
export function unstorableTextReason(value: string): string | null {
  const match = UNSTORABLE.exec(value);
  if (!match) return null;
  const unit = match[0].charCodeAt(0);
  if (unit === 0) return 'must not contain the NUL character (U+0000)';
  return `must be valid Unicode text: it contains an unpaired surrogate (U+${unit.toString(16).toUpperCase()})`;
}

/** Whether `value` can be stored as text as it is. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/**
 * Every string (and object key) in a JSON-like value that cannot be stored, as `{ field, message }` details
 * naming its path (`content.content[0].text`, `events[1]`), at most `limit` of them. Iterative, so any depth is
 * safe to walk; `root` names the value itself (a query parameter's name, or '' for a whole body).
 */
export function findUnstorableText(value: unknown, root = '', limit = 50): ErrorDetail[] {
  const found: ErrorDetail[] = [];
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length > 0 && found.length < limit) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      const reason = unstorableTextReason(current);
      if (reason) found.push({ field: path || 'value', message: `${path || 'value'} ${reason}` });
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    const entries = Array.isArray(current)
      ? current.map((child, i): [unknown, string] => [child, `${path}[${i}]`])
      : Object.entries(current).map(([key, child]): [unknown, string] => [child, path ? `${path}.${key}` : key]);
    if (!Array.isArray(current)) {
      for (const key of Object.keys(current)) {
        const reason = unstorableTextReason(key);
        if (reason) found.push({ field: path || 'body', message: `property names in ${path || 'the body'} ${reason}` });
      }
    }
    // Reversed onto the stack, so fields are reported in document order.
    for (let i = entries.length - 1; i >= 0; i--) stack.push(entries[i]);
  }
  return found.slice(0, limit);
}

/** 400 invalid_request naming every field of `value` whose text cannot be stored, or null when all of it can. */
export function unstorableTextError(value: unknown, root = ''): ValidationError | null {
  const details = findUnstorableText(value, root);
  if (details.length === 0) return null;
  return new ValidationError([...new Set(details.map((detail) => detail.message))].join('; '), details);
}
