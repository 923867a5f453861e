/** Names no other test of the file uses (each test file loads this module afresh, so the count starts there). */
let counter = 0;

/** A title no other test uses (so generated slugs never collide by accident). */
export function uniqueTitle(label: string): string {
  counter += 1;
  return `${label} ${counter}`;
}

/** An email address no other test uses. */
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}.${counter}@example.com`;
}

/** A path (on a test receiver) no other test uses. */
export function freshPath(label: string): string {
  counter += 1;
  return `/${label}-${counter}`;
}
