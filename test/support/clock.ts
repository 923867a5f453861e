/** Waits until the clock (the app runs in this process) has passed `iso`, so the next write gets a later timestamp. */
export async function clockPast(iso: string): Promise<void> {
  while (Date.now() <= Date.parse(iso)) await new Promise((resolve) => setTimeout(resolve, 1));
}
