/**
 * After SIGTERM or SIGINT, a process that has not finished its graceful shutdown within `ms` exits anyway (code 1),
 * so a dependency that never answers (e.g. BullMQ waiting for an unreachable Redis) cannot keep it alive until the
 * orchestrator's SIGKILL. Work cut off this way is at-least-once work that another process takes over.
 */
export function exitAfterShutdownDeadline(ms: number, log: (message: string) => void): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      setTimeout(() => {
        log(`Shutdown did not finish within ${ms} ms; exiting`);
        process.exit(1);
      }, ms).unref();
    });
  }
}
