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

  /** Re-enable (or keep enabled): failureCount back to 0, disabledAt cleared. */
  enable(now: Date): void {
    if (!this.props.enabled) this.props.enabledAt = now;
    this.props.enabled = true;
    this.props.failureCount = 0;
    this.props.disabledAt = null;
    this.props.updatedAt = now;
  }

  disable(now: Date): void {
    if (!this.props.enabled) return;
    this.props.enabled = false;
    this.props.disabledAt = now;
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
    const since = Math.max(this.props.lastSuccessAt?.getTime() ?? 0, this.props.enabledAt.getTime());
    return now.getTime() - since >= policy.afterMs;
  }
}
