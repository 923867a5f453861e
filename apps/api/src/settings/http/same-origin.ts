import type { Request } from 'express';

/**
 * Whether a POST may come from where it says it does: refused when the browser says it is `Sec-Fetch-Site:
 * cross-site`, or when an `Origin` header is present and is not PUBLIC_URL's origin (`null` included). Clients that
 * send neither (curl, older browsers) are left to the token check.
 */
export function isSameOriginPost(request: Request, publicOrigin: string): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite === 'cross-site') return false;
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== publicOrigin) return false;
  return true;
}
