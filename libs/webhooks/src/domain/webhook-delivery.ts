export const DELIVERY_STATUSES = ['pending', 'success', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface WebhookDelivery {
  readonly id: string;
  readonly endpointId: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly responseStatus: number | null;
  readonly error: string | null;
  readonly createdAt: Date;
  readonly deliveredAt: Date | null;
  readonly nextRetryAt: Date | null;
}

export interface DeliveryAttempt {
  readonly id: string;
  readonly deliveryId: string;
  readonly attempt: number;
  readonly attemptedAt: Date;
  readonly responseStatus: number | null;
  readonly durationMs: number;
  readonly error: string | null;
  readonly responseExcerpt: string | null;
}

/** The error of a pending delivery failed because its endpoint was disabled. */
export const ENDPOINT_DISABLED = 'endpoint disabled';
/** The error of a delivery the endpoint may no longer receive (its events were chosen by a key with other scopes). */
export const NOT_PERMITTED = 'not permitted: the endpoint may not receive this event with the scopes of the key that chose its events';

/** The error of a delivery that cannot be signed: its endpoint's stored secret does not open (see WebhookSecretUnreadableError). */
export const SECRET_UNREADABLE = "signing secret unreadable: the endpoint's stored secret does not open with the configured encryption keys";

/** Longest response excerpt kept per attempt. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/**
 * When to try again after failed attempt number `attempts` (1-based), or null when that was the last one.
 * The schedule's delay, or a longer Retry-After the receiver asked for on a 429 or 503.
 */
export function retryDelayMs(attempts: number, scheduleSeconds: readonly number[], retryAfterMs: number | null): number | null {
  if (attempts > scheduleSeconds.length) return null;
  const scheduled = scheduleSeconds[attempts - 1]! * 1000;
  return retryAfterMs !== null && retryAfterMs > scheduled ? retryAfterMs : scheduled;
}

/** A Retry-After header (seconds or an HTTP date) in ms from `now`, or null when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now: Date): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date (`Sun, 22 Nov 2026 10:01:30 GMT`); Date.parse alone would also take '-5' as a year.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(trimmed)) return null;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now.getTime());
}
