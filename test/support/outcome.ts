/** Status and body only, so a failed expectation prints something readable. */
export function outcome(res: { status: number; body: unknown }): { status: number; body: unknown } {
  return { status: res.status, body: res.body };
}
