/** How long a completed request's response is kept and replayed under its Idempotency-Key. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 3600 * 1000;

export interface StoredResponse {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
}

export interface IdempotencyRecord {
  readonly owner: string;
  readonly key: string;
  readonly fingerprint: string;
  readonly response: StoredResponse | null;
  readonly createdAt: Date;
}

/** Port: requests made under an Idempotency-Key and their first completed response. */
export abstract class IdempotencyRepository {
  /** Claims the key for a new request; false when a record exists already. */
  abstract claim(owner: string, key: string, fingerprint: string, at: Date): Promise<boolean>;
  abstract find(owner: string, key: string): Promise<IdempotencyRecord | null>;
  /** Replaces an expired or abandoned record with a new claim; false when someone else got there first. */
  abstract reclaim(previous: IdempotencyRecord, fingerprint: string, at: Date): Promise<boolean>;
  abstract complete(owner: string, key: string, response: StoredResponse, at: Date): Promise<void>;
  abstract release(owner: string, key: string): Promise<void>;
  /** Deletes records created before `before`; returns how many. */
  abstract pruneCreatedBefore(before: Date): Promise<number>;
}
