/**
 * The conditional request headers (RFC 9110 §13.1): `If-Match` and `If-None-Match` hold `*` or a comma-separated
 * list of entity tags, each strong (`"…"`) or weak (`W/"…"`).
 */
interface EntityTag {
  readonly weak: boolean;
  /** The tag with its quotes, as an ETag header carries it. */
  readonly opaque: string;
}

function parseEntityTags(header: string): '*' | EntityTag[] {
  if (header.trim() === '*') return '*';
  return header
    .split(',')
    .map((tag) => tag.trim())
    .map((tag) => (tag.startsWith('W/') ? { weak: true, opaque: tag.slice(2) } : { weak: false, opaque: tag }));
}

/**
 * `If-Match` as the tags a current ETag must equal: undefined without the header, `*` for any current
 * representation, else the strong tags listed. A weak tag never matches, whatever its value (strong comparison,
 * §8.8.3.2), so it is left out.
 */
export function ifMatchTags(header: string | undefined): '*' | string[] | undefined {
  if (header === undefined) return undefined;
  const tags = parseEntityTags(header);
  return tags === '*' ? '*' : tags.filter((tag) => !tag.weak).map((tag) => tag.opaque);
}

/** Whether `If-None-Match` matches `etag` (a 304 for a GET): `*`, or a tag equal to it by the weak comparison (§8.8.3.2). */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const tags = parseEntityTags(header);
  return tags === '*' || tags.some((tag) => tag.opaque === etag);
}
