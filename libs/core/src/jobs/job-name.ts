/**
 * Every job the service runs. Values are stable queue names (persisted in Redis), so never rename one.
 * The worker refuses to start when a name here has no processor.
 */
export enum JobName {
  /** Moves an API key's lastUsedAt forward (recorded off the request path). */
  RecordKeyUsage = 'record-key-usage',
  /** Deletes stored Idempotency-Key responses past their 24 h retention. */
  PruneIdempotencyKeys = 'prune-idempotency-keys',
  /** One attempt at one webhook delivery (job ID = delivery ID); retries follow WEBHOOK_RETRY_SCHEDULE. */
  DeliverWebhook = 'deliver-webhook',
  /** Deletes webhook deliveries and relayed events older than 30 days. */
  PruneWebhookDeliveries = 'prune-webhook-deliveries',
  /** Runs one AI task (job ID = task ID). */
  RunTask = 'run-task',
  /** Puts tasks left `running` by a dead worker back in the queue. */
  RecoverTasks = 'recover-tasks',
  /** Deletes expired admin sessions and spent sign-in throttle counters (hourly). */
  PruneAdminSessions = 'prune-admin-sessions',
  /** Folds the help center's recorded content changes into one record (every minute; the content version stays). */
  CompactHelpCenterChanges = 'compact-help-center-changes',
}

/** Payload of each job. Payloads are JSON: dates travel as ISO strings. */
export interface JobPayloads {
  [JobName.RecordKeyUsage]: { keyId: string; usedAt: string };
  [JobName.PruneIdempotencyKeys]: Record<string, never>;
  [JobName.DeliverWebhook]: { deliveryId: string };
  [JobName.PruneWebhookDeliveries]: Record<string, never>;
  [JobName.RunTask]: { taskId: string };
  [JobName.RecoverTasks]: Record<string, never>;
  [JobName.PruneAdminSessions]: Record<string, never>;
  [JobName.CompactHelpCenterChanges]: Record<string, never>;
}

export const ALL_JOB_NAMES: readonly JobName[] = Object.values(JobName);
