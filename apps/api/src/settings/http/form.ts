import express, { type Request, type Response } from 'express';
import { unstorableTextError, ValidationError } from '#core';

/** The settings' forms are a few short fields and some checkboxes: 16 KiB is plenty. */
export const MAX_SETTINGS_FORM_BYTES = 16 * 1024;
const FORM_TYPE = 'application/x-www-form-urlencoded';
const parseForm = express.urlencoded({ extended: false, limit: MAX_SETTINGS_FORM_BYTES, parameterLimit: 64, type: FORM_TYPE });

/** A posted form: each field's values in order (a checkbox group repeats its name). */
export class Form {
  constructor(private readonly fields: Readonly<Record<string, readonly string[]>>) {}

  /** The first value of a field, or '' when it was not sent. */
  text(name: string): string {
    return this.fields[name]?.[0] ?? '';
  }

  /** Every value of a field (the checked boxes of a group). */
  all(name: string): string[] {
    return [...(this.fields[name] ?? [])];
  }
}

/**
 * Reads a POSTed urlencoded form (the JSON body middleware leaves such bodies outside /v1 to their route). Another
 * media type, a body over 16 KiB, a malformed one or text PostgreSQL cannot store is a 400.
 */
export async function readForm(request: Request, response: Response): Promise<Form> {
  if (!request.is(FORM_TYPE)) {
    // A POST without a body (no Content-Type) is an empty form: its missing token refuses it.
    if (request.headers['content-type'] === undefined) return new Form({});
    throw new ValidationError(`Forms are posted as ${FORM_TYPE}`);
  }
  await new Promise<void>((resolve, reject) =>
    parseForm(request, response, (error?: unknown) => {
      if (!error) return resolve();
      const type = (error as { type?: string }).type;
      reject(new ValidationError(type === 'entity.too.large' ? `The form exceeds ${MAX_SETTINGS_FORM_BYTES} bytes` : 'The form could not be read'));
    }),
  );
  const body = (request.body ?? {}) as Record<string, unknown>;
  const unstorable = unstorableTextError(body);
  if (unstorable) throw unstorable;
  const fields: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(body)) {
    const values = (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string');
    fields[name] = values;
  }
  return new Form(fields);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The last day a key works, from the form's date (`YYYY-MM-DD`): it expires at the end of that day, UTC. Empty is
 * no expiry; a malformed or impossible date is an error for the field.
 */
export function expiryOf(text: string): Date | null | 'invalid' {
  if (text.trim() === '') return null;
  const match = DATE.exec(text.trim());
  if (!match) return 'invalid';
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const start = new Date(Date.UTC(year, month - 1, day));
  if (start.getUTCFullYear() !== year || start.getUTCMonth() !== month - 1 || start.getUTCDate() !== day) return 'invalid';
  return new Date(start.getTime() + 24 * 3600 * 1000);
}
