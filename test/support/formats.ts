/** How the API writes a timestamp: ISO 8601 in UTC with milliseconds. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A ULID (Crockford base 32), the body of every resource ID; a RegExp source to build ID patterns from. */
export const ULID = '[0-9A-HJKMNP-TV-Z]{26}';

export const ARTICLE_ID = new RegExp(`^art_${ULID}$`);
export const COLLECTION_ID = new RegExp(`^col_${ULID}$`);
export const SECTION_ID = new RegExp(`^sect_${ULID}$`);
export const REVISION_ID = new RegExp(`^rev_${ULID}$`);
export const TASK_ID = new RegExp(`^tsk_${ULID}$`);
export const EVENT_ID = new RegExp(`^evt_${ULID}$`);
export const DELIVERY_ID = new RegExp(`^whdl_${ULID}$`);
export const USER_ID = new RegExp(`^hcusr_${ULID}$`);

/** Well-formed IDs that name nothing (404s). */
export const UNKNOWN_ARTICLE = 'art_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';
export const UNKNOWN_SECTION = 'sect_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';
export const UNKNOWN_COLLECTION = 'col_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';
