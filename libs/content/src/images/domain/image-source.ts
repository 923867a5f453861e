/** Where stored images live, as a path in article content: `/user-images/<sha256>.<ext>`. */
export const ASSET_PATH_PREFIX = '/user-images/';
const ASSET_NAME = /^[0-9a-f]{64}\.(png|jpg|gif|webp|avif)$/;

export const MALFORMED_DATA_URL = 'Image data URL must contain valid base64 data';

export type ImageSource =
  | { readonly kind: 'data'; readonly bytes: Buffer }
  | { readonly kind: 'hosted'; readonly path: string }
  | { readonly kind: 'remote'; readonly url: string }
  | { readonly kind: 'invalid'; readonly message: string };

// `data:image/<subtype>[;param=value]*;base64,<payload>`; the payload is checked separately.
const DATA_URL = /^data:image\/[a-z0-9.+-]+((?:;[a-z0-9.-]+=[^;,]*)*);base64,/i;
// Standard alphabet, padded: what RFC 2397 data URLs carry. No whitespace, no URL-safe alphabet.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A stored asset's name (`<sha256>.<ext>`), or null when the text is not one. */
export function assetName(name: string): string | null {
  return ASSET_NAME.test(name) ? name : null;
}

export function assetPath(sha256: string, extension: string): string {
  return `${ASSET_PATH_PREFIX}${sha256}.${extension}`;
}

/** The object storage key of an asset path. */
export function storageKeyOf(path: string): string {
  return path.slice(1);
}

/**
 * What an image `src` of a request is: inline bytes, an image this service already hosts (given as its asset
 * path or as its full static URL), a remote URL to fetch, or something that is not an accepted source.
 */
export function classifyImageSource(src: string, staticUrl: string): ImageSource {
  const trimmed = src.trim();
  if (/^data:/i.test(trimmed)) return decodeDataUrl(trimmed);
  const hostedPrefix = `${staticUrl}${ASSET_PATH_PREFIX}`;
  const hosted = trimmed.startsWith(ASSET_PATH_PREFIX) ? trimmed.slice(ASSET_PATH_PREFIX.length) : hostedName(trimmed, hostedPrefix);
  if (hosted !== null) {
    const name = assetName(hosted);
    return name ? { kind: 'hosted', path: `${ASSET_PATH_PREFIX}${name}` } : { kind: 'invalid', message: `Image ${abbreviate(src)} is not an image hosted by this help center` };
  }
  const url = URL.canParse(trimmed) ? new URL(trimmed) : null;
  if (url && (url.protocol === 'http:' || url.protocol === 'https:')) return { kind: 'remote', url: url.toString() };
  return {
    kind: 'invalid',
    message: `Image ${abbreviate(src)} is not accepted: use an absolute http(s) URL, a data:image/...;base64 URL or an image hosted under ${hostedPrefix}`,
  };
}

/**
 * The part after `{STATIC_URL}/user-images/` of a URL on the static origin, compared as URLs (so host case and a
 * default port do not matter), or null for a URL elsewhere.
 */
function hostedName(src: string, hostedPrefix: string): string | null {
  if (src.startsWith(hostedPrefix)) return src.slice(hostedPrefix.length);
  if (!URL.canParse(src)) return null;
  const url = new URL(src);
  const prefix = new URL(hostedPrefix);
  if (url.origin !== prefix.origin || !url.pathname.startsWith(prefix.pathname)) return null;
  // Anything but a bare name (a query, a fragment) makes it an invalid hosted source rather than a remote one.
  return `${url.pathname.slice(prefix.pathname.length)}${url.search}${url.hash}`;
}

function decodeDataUrl(src: string): ImageSource {
  const head = DATA_URL.exec(src);
  if (!head) {
    if (/^data:image\//i.test(src)) return { kind: 'invalid', message: MALFORMED_DATA_URL };
    return { kind: 'invalid', message: `Image ${abbreviate(src)} is not accepted: data URLs must be data:image/...;base64 images` };
  }
  const payload = src.slice(head[0].length);
  if (payload.length === 0 || !BASE64.test(payload)) return { kind: 'invalid', message: MALFORMED_DATA_URL };
  return { kind: 'data', bytes: Buffer.from(payload, 'base64') };
}

/** A source short enough for an error message: data URLs and long URLs are cut. */
export function abbreviate(src: string): string {
  if (/^data:/i.test(src)) return `${src.slice(0, Math.min(src.indexOf(',') + 1 || 40, 40))}…`;
  return src.length > 200 ? `${src.slice(0, 200)}…` : src;
}
