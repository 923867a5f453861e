import { randomBytes } from 'node:crypto';
import { ALL_EVENTS, EVENT_READ_SCOPES, type EventType, InsufficientScopeError, InvalidStateError, isEventType, mayReceiveEvent, newId, type Scope, ValidationError } from '#core/domain';

/** How long a rotated-out secret keeps signing beside the new one, so receivers can switch without a gap. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3600 * 1000;

export interface WebhookEndpointProps {
  id: string;
  url: string;
  description: string | null;
  /** Event types, or ['*'] for all. */
  events: string[];
  enabled: boolean;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
  failureCount: number;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  disabledAt: Date | null;
  /** Why it is disabled; null while enabled (and for an endpoint disabled before reasons were recorded). */
  disabledReason: DisabledReason | null;
  /** One sentence saying why, for people; never a secret nor the URL's path or query. Null while enabled. */
  disabledMessage: string | null;
  /** Since when it is enabled (creation or the last re-enable): the auto-disable period counts from here at the earliest. */
  enabledAt: Date;
  /**
   * The scopes of the key that chose its events (null: a legacy full-access key, or an endpoint created before this
   * was recorded). It receives only events such a key may read, whatever it subscribes to.
   */
  createdByScopes: Scope[] | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What a key chooses when it registers an endpoint. */
export interface WebhookEndpointInput {
  readonly url: string;
  readonly events: readonly string[];
  readonly description?: string | null;
}

/** What an update may change; an omitted field stays as it is. */
export type WebhookEndpointChanges = Partial<WebhookEndpointInput>;

/**
 * An endpoint whose stored signing secret does not open with this service's encryption keys (altered in the
 * database, copied from another endpoint, or sealed by a process with other keys): it cannot sign anything, so
 * nothing that would send to it or re-seal its secret can proceed.
 */
export class WebhookSecretUnreadableError extends InvalidStateError {
  constructor(readonly endpointId: string) {
    super(
      `Webhook endpoint ${endpointId} cannot sign deliveries: its stored signing secret does not open with the configured encryption keys ` +
        '(ENCRYPTION_KEY, ENCRYPTION_KEY_PREVIOUS); it was altered or copied from another endpoint in the database, or sealed with a key this service does not have. ' +
        'Restore the stored secret or the key, or delete the endpoint and create it again',
    );
  }
}

/**
 * Why an endpoint is disabled: `manual` (by a key or an admin), `gone` (the receiver answered 410 Gone),
 * `sustained_failures` (WEBHOOK_DISABLE_MIN_FAILURES failed attempts and no success for WEBHOOK_DISABLE_AFTER_SECONDS).
 */
export const DISABLED_REASONS = ['manual', 'gone', 'sustained_failures'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

/** A reason to disable an endpoint, and the sentence that tells it. */
export interface DisableCause {
  readonly reason: DisabledReason;
  readonly message: string;
}

/** The failed attempt that may tip an endpoint over. */
export interface FailedAttempt {
  readonly responseStatus: number | null;
  readonly error: string | null;
}

/** Longest stored message; an error text longer than that is cut. */
export const DISABLED_MESSAGE_MAX_LENGTH = 300;
const LAST_ERROR_MAX_LENGTH = 160;

/** "3 seconds", "1 minute", "36 hours", "5 days": whole units, days from 2 days on and hours from 2 hours on. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(Math.max(0, ms) / 1000);
  if (seconds < 1) return 'less than a second';
  const [unit, size]: readonly [string, number] = seconds >= 2 * 86_400 ? ['day', 86_400] : seconds >= 2 * 3600 ? ['hour', 3600] : seconds >= 60 ? ['minute', 60] : ['second', 1];
  const n = Math.floor(seconds / size);
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

function originOf(url: string): string | null {
  const origin = URL.canParse(url) ? new URL(url).origin : 'null';
  return origin === 'null' ? null : origin;
}

/**
 * An attempt's error as a message may quote it: any URL in it reduced to its origin (a receiver's path or query may
 * carry a token), on one line, cut to a reasonable length.
 */
export function quotableError(attempt: FailedAttempt): string {
  const raw = attempt.error ?? (attempt.responseStatus === null ? 'no response' : `HTTP ${attempt.responseStatus}`);
  const text = raw
    .replace(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, (url) => originOf(url) ?? '(a URL)')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > LAST_ERROR_MAX_LENGTH ? `${text.slice(0, LAST_ERROR_MAX_LENGTH - 1)}…` : text;
}

export interface AutoDisablePolicy {
  readonly minFailures: number;
  readonly afterMs: number;
}

/** `whsec_` + base64 of 32 random bytes: the Standard Webhooks secret format. */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Subscribed event types: known names or the wildcard alone; duplicates dropped, order kept. */
export function normaliseEvents(events: readonly string[]): string[] {
  if (events.length === 0) throw ValidationError.field('events', 'events must name at least one event type or "*"');
  const unknown = events.filter((e) => e !== ALL_EVENTS && !isEventType(e));
  if (unknown.length > 0) throw ValidationError.field('events', `Unknown event type(s): ${unknown.join(', ')}`);
  if (events.includes(ALL_EVENTS)) {
    if (events.length > 1) throw ValidationError.field('events', '"*" subscribes to every event and cannot be combined with others');
    return [ALL_EVENTS];
  }
  return [...new Set(events)];
}

/**
 * Event names a key may subscribe an endpoint to: each one it names must be readable with its scopes (403 naming
 * the scope otherwise). `*` is every event the key may read.
 */
function assertReadable(events: readonly string[], scopes: readonly Scope[] | null): void {
  for (const event of events) {
    if (event !== ALL_EVENTS && isEventType(event) && !mayReceiveEvent(event, scopes)) {
      throw new InsufficientScopeError(EVENT_READ_SCOPES[event][0]!);
    }
  }
}

/** An outbound webhook subscription. Endpoints auto-disable after sustained failures (CONTRACT §9). */
export class WebhookEndpoint {
  private constructor(private props: WebhookEndpointProps) {}

  static create(input: WebhookEndpointInput & { scopes: readonly Scope[] | null }, now: Date): WebhookEndpoint {
    const events = normaliseEvents(input.events);
    assertReadable(events, input.scopes);
    return new WebhookEndpoint({
      id: newId('whep'),
      url: input.url,
      description: input.description ?? null,
      events,
      enabled: true,
      secret: generateSecret(),
      previousSecret: null,
      previousSecretUntil: null,
      failureCount: 0,
      lastSuccessAt: null,
      lastFailureAt: null,
      disabledAt: null,
      disabledReason: null,
      disabledMessage: null,
      enabledAt: now,
      createdByScopes: input.scopes === null ? null : [...input.scopes],
      createdAt: now,
      updatedAt: now,
    });
  }

  static restore(props: WebhookEndpointProps): WebhookEndpoint {
    return new WebhookEndpoint({ ...props });
  }

  get id(): string {
    return this.props.id;
  }

  get enabled(): boolean {
    return this.props.enabled;
  }

  get url(): string {
    return this.props.url;
  }

  snapshot(): Readonly<WebhookEndpointProps> {
    return { ...this.props, events: [...this.props.events], createdByScopes: this.props.createdByScopes && [...this.props.createdByScopes] };
  }

  /** Subscribed to `type`, and allowed to receive it (see createdByScopes). */
  subscribes(type: EventType): boolean {
    const subscribed = this.props.events.includes(ALL_EVENTS) || this.props.events.includes(type);
    return subscribed && mayReceiveEvent(type, this.props.createdByScopes);
  }

  /** New events are checked against the updating key's scopes, which then decide what the endpoint receives. */
  update(changes: WebhookEndpointChanges, scopes: readonly Scope[] | null, now: Date): void {
    if (changes.url !== undefined) this.props.url = changes.url;
    if (changes.events !== undefined) {
      const events = normaliseEvents(changes.events);
      assertReadable(events, scopes);
      this.props.events = events;
      this.props.createdByScopes = scopes === null ? null : [...scopes];
    }
    if (changes.description !== undefined) this.props.description = changes.description;
    this.props.updatedAt = now;
  }

  /** Re-enable (or keep enabled): failureCount back to 0, disabledAt and the reason cleared. */
  enable(now: Date): void {
    if (!this.props.enabled) this.props.enabledAt = now;
    this.props.enabled = true;
    this.props.failureCount = 0;
    this.props.disabledAt = null;
    this.props.disabledReason = null;
    this.props.disabledMessage = null;
    this.props.updatedAt = now;
  }

  /** Disables it for `cause`; an endpoint already disabled keeps its time and first reason. */
  disable(now: Date, cause: DisableCause): void {
    if (!this.props.enabled) return;
    this.props.enabled = false;
    this.props.disabledAt = now;
    this.props.disabledReason = cause.reason;
    this.props.disabledMessage = cause.message.slice(0, DISABLED_MESSAGE_MAX_LENGTH);
    this.props.updatedAt = now;
  }

  /** A new secret; the old one keeps signing beside it for 24 hours. Returns the new secret. */
  rotateSecret(now: Date): string {
    this.props.previousSecret = this.props.secret;
    this.props.previousSecretUntil = new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS);
    this.props.secret = generateSecret();
    this.props.updatedAt = now;
    return this.props.secret;
  }

  /** The secrets that sign a delivery made at `now`: the current one, and a rotated-out one still in its grace period. */
  signingSecrets(now: Date): string[] {
    const previous = this.props.previousSecret && this.props.previousSecretUntil && this.props.previousSecretUntil > now ? [this.props.previousSecret] : [];
    return [this.props.secret, ...previous];
  }

  /**
   * Whether failures so far call for auto-disabling: `410 Gone` at once; otherwise at least `minFailures`
   * consecutive failures and no success within the period (counted from the last success, or from when the
   * endpoint was enabled if it has had none since).
   */
  shouldAutoDisable(policy: AutoDisablePolicy, now: Date, responseStatus: number | null): boolean {
    if (responseStatus === 410) return true;
    if (this.props.failureCount < policy.minFailures) return false;
    return now.getTime() - this.failingSince().getTime() >= policy.afterMs;
  }

  /**
   * Why the failures so far disable it (see shouldAutoDisable), with the sentence that says so; null when they do
   * not. The sentence names the failed attempts, how long there has been no success and the last error, never the
   * URL's path or query.
   */
  autoDisableCause(policy: AutoDisablePolicy, now: Date, attempt: FailedAttempt): DisableCause | null {
    if (!this.shouldAutoDisable(policy, now, attempt.responseStatus)) return null;
    if (attempt.responseStatus === 410) return { reason: 'gone', message: 'Disabled at once: the receiver answered HTTP 410 Gone.' };
    const failures = this.props.failureCount;
    const period = humanDuration(now.getTime() - this.failingSince().getTime());
    const message = `Disabled after ${failures} failed attempt${failures === 1 ? '' : 's'} in a row and no success for ${period}; last error: ${quotableError(attempt)}.`;
    return { reason: 'sustained_failures', message: message.slice(0, DISABLED_MESSAGE_MAX_LENGTH) };
  }

  /** Where the period without success starts: the last success, or the last (re-)enable if that is later. */
  private failingSince(): Date {
    return new Date(Math.max(this.props.lastSuccessAt?.getTime() ?? 0, this.props.enabledAt.getTime()));
  }
}
