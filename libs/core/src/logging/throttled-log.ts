/**
 * Lets a repeated warning through at most once per interval (per key), so a backing service that stays
 * down produces a line now and then instead of one per retry.
 */
export class LogThrottle {
  private readonly last = new Map<string, number>();

  constructor(private readonly intervalMs = 30_000) {}

  allow(key: string, now = Date.now()): boolean {
    const previous = this.last.get(key);
    if (previous !== undefined && now - previous < this.intervalMs) return false;
    this.last.set(key, now);
    return true;
  }
}
