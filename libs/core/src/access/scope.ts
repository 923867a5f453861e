/** API key scopes (source §5). */
export const SCOPES = [
  'content:read',
  'content:write',
  'content:publish',
  'analytics:read',
  'conversations:read',
  'webhooks:manage',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Scopes a granted scope carries with it: content:write and content:publish imply content:read. */
const IMPLIED: Readonly<Partial<Record<Scope, readonly Scope[]>>> = {
  'content:write': ['content:read'],
  'content:publish': ['content:read'],
};

/** The effective scope set of a key; `null` scopes (legacy keys) grant everything. */
export function effectiveScopes(granted: readonly Scope[] | null): ReadonlySet<Scope> {
  if (granted === null) return new Set(SCOPES);
  const result = new Set<Scope>(granted);
  for (const scope of granted) for (const implied of IMPLIED[scope] ?? []) result.add(implied);
  return result;
}
