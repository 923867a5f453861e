export interface SendResult {
  /** null when no HTTP answer came (network error, timeout, refused address). */
  readonly status: number | null;
  readonly retryAfter: string | undefined;
  /** The start of the response body (1 KiB at most), as text. */
  readonly excerpt: string | null;
  /** Why it did not get an answer; null when it did. */
  readonly error: string | null;
  readonly durationMs: number;
}

/** POSTs a signed payload to a receiver, SSRF-safe, without following redirects. */
export abstract class WebhookSender {
  abstract post(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
}

/** Checks an endpoint URL when it is registered: scheme, and where it points. Throws ValidationError. */
export abstract class WebhookUrlPolicy {
  abstract check(url: string, field?: string): Promise<string>;
}
