/** How `eventually` polls. */
export interface Polling {
  /** How long to keep trying before failing. */
  readonly timeoutMs: number;
  /** The pause between two tries. */
  readonly intervalMs: number;
  /** A probe that throws is tried again (its last error is named on time-out); otherwise the error fails at once. */
  readonly retryErrors: boolean;
}

/**
 * Polls `probe` until it returns a value other than undefined/false (and returns it), or fails after `timeoutMs`
 * naming `what` and, when given, what `diagnose` says of the state at that moment.
 */
export type Eventually = <T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs?: number,
  diagnose?: () => Promise<string>,
) => Promise<T>;

/** An `eventually` with these defaults (a suite that waits for slower things polls less often, for longer). */
export function polling(defaults: Partial<Polling>): Eventually {
  const { timeoutMs: defaultTimeoutMs = 15_000, intervalMs = 50, retryErrors = false } = defaults;
  return async (probe, what, timeoutMs = defaultTimeoutMs, diagnose) => {
    const deadline = Date.now() + timeoutMs;
    let last: unknown;
    for (;;) {
      try {
        const value = await probe();
        if (value !== undefined && value !== false) return value;
        last = undefined;
      } catch (error) {
        if (!retryErrors) throw error;
        last = error;
      }
      if (Date.now() > deadline) {
        const lastError = last ? ` (last error: ${(last as Error).message})` : '';
        throw new Error(`Timed out after ${timeoutMs} ms waiting for: ${what}${lastError}${diagnose ? `\n${await diagnose()}` : ''}`);
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  };
}

/** Polls every 50 ms for up to 15 s (or `timeoutMs`), trying again when the probe throws. */
export const eventually: Eventually = polling({ timeoutMs: 15_000, intervalMs: 50, retryErrors: true });
