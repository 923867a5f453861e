import type { AdminView } from '#admin';
import type { SettingsUrls } from '../settings-urls.js';

/** The sections of the settings, in the order of the navigation. */
export type SettingsSection = 'keys' | 'webhooks' | 'audit' | 'admins' | 'account';

/** What every settings view of one request needs. */
export interface SettingsContext {
  readonly urls: SettingsUrls;
  /** The signed-in admin; null on the setup and sign-in pages (and error pages without a session). */
  readonly admin: AdminView | null;
  /** The CSRF token every form of the page carries (the session's, or the pre-session double-submit cookie's). */
  readonly csrfToken: string;
  /** The navigation entry of the page. */
  readonly section?: SettingsSection;
  /** A confirmation of what the previous request did ("The key was revoked."). */
  readonly notice?: string | null;
}

/** The confirmations a redirect may ask for (`?notice=<code>`): fixed texts, so nothing from the URL is echoed. */
export const NOTICES = {
  key_revoked: 'The key was revoked. Requests with it now get 401.',
  webhook_updated: 'The endpoint was saved.',
  webhook_enabled: 'The endpoint was enabled. Its failure count is back to 0.',
  webhook_disabled: 'The endpoint was disabled. Nothing is sent to it until it is enabled again.',
  webhook_deleted: 'The endpoint and its delivery records were deleted.',
  test_sent: 'A test event was queued. Its delivery is listed below; reload the page to see how it went.',
  delivery_retried: 'The delivery was queued again. Reload the page to see the new attempt.',
  admin_removed: 'The admin was removed and signed out everywhere.',
  session_revoked: 'The session was signed out.',
  password_changed: 'Your password was changed. Your other sessions were signed out.',
  signed_out: 'You signed out.',
  session_ended: 'Your session ended. Sign in again to continue.',
} as const;

export type NoticeCode = keyof typeof NOTICES;

export function noticeText(code: unknown): string | null {
  return typeof code === 'string' && Object.hasOwn(NOTICES, code) ? NOTICES[code as NoticeCode] : null;
}
