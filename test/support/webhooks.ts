/** Webhook endpoint and delivery resources as the API returns them. */
export interface Attempt {
  attempt: number;
  attemptedAt: string;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

export interface Delivery {
  id: string;
  eventType: string;
  status: 'pending' | 'success' | 'failed';
  responseStatus: number | null;
  attempts: number;
  error: string | null;
  createdAt: string;
  deliveredAt: string | null;
  nextRetryAt: string | null;
  attemptHistory?: Attempt[];
}

/** A webhook endpoint; `secret` and `deliveries` are in some answers only. */
export interface Endpoint {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  description: string | null;
  failureCount: number;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  disabledAt: string | null;
  disabledReason: 'manual' | 'gone' | 'sustained_failures' | null;
  disabledMessage: string | null;
  createdAt: string;
  updatedAt: string;
  secret?: string;
  deliveries?: Delivery[];
}
