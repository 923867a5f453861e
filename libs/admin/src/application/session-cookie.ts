/**
 * The name of the cookie holding a session's value. Set by the settings pages with `Path=/settings; HttpOnly;
 * SameSite=Lax` and `Secure` unless PUBLIC_URL is plain-http localhost.
 */
export const SESSION_COOKIE = 'hc_session';
