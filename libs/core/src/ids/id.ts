import { monotonicFactory } from 'ulidx';

export const ID_PREFIXES = [
  'art', 'artr', 'rev', 'drf', 'col', 'sect', 'sectr', 'coltr', 'help', 'tsk', 'tout', 'fb', 'hcusr', 'whep', 'whdl', 'what', 'evt', 'key', 'aud', 'adm', 'ses',
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

const ulid = monotonicFactory();

/** `<prefix>_<ULID>`: URL-safe, unique, and sortable by creation time. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid()}`;
}

const ID_PATTERN = /^[a-z]+_[0-9A-HJKMNP-TV-Z]{26}$/;

/** True when `value` looks like an ID of the given prefix (cheap check before a lookup). */
export function isId(value: string, prefix: IdPrefix): boolean {
  return value.startsWith(`${prefix}_`) && ID_PATTERN.test(value);
}
