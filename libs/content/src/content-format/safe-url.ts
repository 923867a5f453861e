// URL allow-lists for rendered HTML. Both functions return the URL to emit, or null when it must be dropped.
//
// Browsers ignore ASCII tab/newline anywhere in a URL and strip leading C0 controls and spaces, so
// `java\tscript:` or ` JaVaScRiPt:` still run script. The scheme is therefore read from a copy without any
// control, space or invisible formatting character. That is stricter than browsers (`a b:c` counts as
// scheme `ab` and is dropped), never looser.
// eslint-disable-next-line no-control-regex -- matching control characters is the point here
const IGNORED_IN_SCHEME = /[\u0000-\u0020\u007f-\u009f\s\u00ad\u200b-\u200f\u2028-\u202f\u2060-\u206f\ufeff]+/g;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const LINK_SCHEMES = new Set(['http', 'https', 'mailto']);
const IMAGE_SCHEMES = new Set(['http', 'https']);
const DATA_IMAGE = /^data:image\//i;

function schemeOf(compact: string): string | null {
  // Scheme characters exclude `/`, `?` and `#`, so `./a:b` or `#x:y` read as relative, as browsers do.
  const match = SCHEME.exec(compact);
  return match ? match[1].toLowerCase() : null;
}

/** http:, https:, mailto: or relative (`/`, `#`, `./`, `../`, no scheme). */
export function safeHref(href: unknown): string | null {
  if (typeof href !== 'string') return null;
  const compact = href.replace(IGNORED_IN_SCHEME, '');
  const scheme = schemeOf(compact);
  if (scheme !== null && !LINK_SCHEMES.has(scheme)) return null;
  return href.trim();
}

/** http:, https:, relative, or an inline `data:image/` picture (images never run script in an img element). */
export function safeImageSrc(src: unknown): string | null {
  if (typeof src !== 'string') return null;
  const compact = src.replace(IGNORED_IN_SCHEME, '');
  if (compact === '') return null;
  const scheme = schemeOf(compact);
  if (scheme === null || IMAGE_SCHEMES.has(scheme) || DATA_IMAGE.test(compact)) return src.trim();
  return null;
}

/** A link target that `safeHref` would drop, found in a document: where it is, for an error naming it. */
export interface UnsafeLink {
  readonly where: string;
  readonly href: string;
}
